-- restmint migration: alter table authors: rename to writers
-- restmint migration: alter table posts: rename title to headline, headline unique, price integer → number, author_id references writers on delete restrict

alter table "authors" rename to "writers";
alter table "writers" rename constraint "authors_pkey" to "writers_pkey";
alter sequence "authors_id_seq" rename to "writers_id_seq";
alter index "authors_name__id_idx" rename to "writers_name__id_idx";
alter index "authors_created_at__id_idx" rename to "writers_created_at__id_idx";
alter index "authors_updated_at__id_idx" rename to "writers_updated_at__id_idx";

drop index "posts_price__id_idx";
alter table "posts" rename column "title" to "headline";
alter table "posts" alter column "price" type double precision using "price"::double precision;
alter table "posts" add constraint "posts_headline_key" unique ("headline");
create index "posts_price__id_idx" on "posts" ("price" nulls first, "id");
