-- restmint migration: alter table posts: add deleted_at (datetime), author_id references authors on delete set_null, unique constraints become partial (among live rows only: WHERE deleted_at IS NULL)

alter table "posts" drop constraint "posts_slug_key";
alter table "posts" drop constraint "posts_author_id_fkey";
alter table "posts" add column "deleted_at" timestamptz;
create unique index "posts_slug_key" on "posts" ("slug") where "deleted_at" is null;
alter table "posts" add constraint "posts_author_id_fkey" foreign key ("author_id") references "authors" ("id") on delete set null;
