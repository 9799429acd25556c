-- restmint migration: alter table authors: rename to writers
-- restmint migration: alter table posts: rename title to headline, headline unique, price integer → number, author_id references writers on delete restrict

alter table "authors" rename to "writers";
drop index "authors_name__id_idx";
drop index "authors_created_at__id_idx";
drop index "authors_updated_at__id_idx";
create index "writers_name__id_idx" on "writers" ("name", "id");
create index "writers_created_at__id_idx" on "writers" ("created_at", "id");
create index "writers_updated_at__id_idx" on "writers" ("updated_at", "id");

-- "posts" is rebuilt: SQLite cannot alter its columns in place (https://www.sqlite.org/lang_altertable.html#otheralter)
create table "new_posts" (
  "id" integer not null primary key autoincrement,
  "headline" text not null,
  "price" real,
  "author_id" integer,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "posts_headline_key" unique ("headline"),
  constraint "posts_author_id_fkey" foreign key ("author_id") references "writers" ("id") on delete restrict
);
insert into sqlite_sequence (name, seq) select 'new_posts', seq from sqlite_sequence where name = 'posts';
insert into "new_posts" ("id", "headline", "price", "author_id", "created_at", "updated_at")
select
  "id",
  "title",
  cast("price" as real),
  "author_id",
  "created_at",
  "updated_at"
from "posts";
drop table "posts";
alter table "new_posts" rename to "posts";
create index "posts_author_id_idx" on "posts" ("author_id");
create index "posts_price__id_idx" on "posts" ("price", "id");
create index "posts_created_at__id_idx" on "posts" ("created_at", "id");
create index "posts_updated_at__id_idx" on "posts" ("updated_at", "id");
