-- restmint migration: alter table posts: add summary (string), add status (string), add rating (number, existing rows 0), index (rating, id)

alter table "posts" add column "summary" text;
alter table "posts" add column "status" text default 'draft' not null;
alter table "posts" add column "rating" double precision default 0 not null;
alter table "posts" alter column "rating" drop default;
create index "posts_rating__id_idx" on "posts" ("rating", "id");
