-- restmint migration: alter table posts: add deleted_at (datetime), author_id references authors on delete set_null, unique constraints become partial (among live rows only: WHERE deleted_at IS NULL)

-- "posts" is rebuilt: SQLite cannot alter its columns in place (https://www.sqlite.org/lang_altertable.html#otheralter)
create table "new_posts" (
  "id" integer not null primary key autoincrement,
  "title" text not null,
  "slug" text not null,
  "author_id" integer,
  "created_at" text not null,
  "updated_at" text not null,
  "deleted_at" text,
  constraint "posts_author_id_fkey" foreign key ("author_id") references "authors" ("id") on delete set null
);
insert into sqlite_sequence (name, seq) select 'new_posts', seq from sqlite_sequence where name = 'posts';
insert into "new_posts" ("id", "title", "slug", "author_id", "created_at", "updated_at", "deleted_at")
select
  "id",
  "title",
  "slug",
  "author_id",
  "created_at",
  "updated_at",
  null
from "posts";
drop table "posts";
alter table "new_posts" rename to "posts";
create unique index "posts_slug_key" on "posts" ("slug") where "deleted_at" is null;
create index "posts_author_id_idx" on "posts" ("author_id");
create index "posts_slug__id_idx" on "posts" ("slug", "id");
create index "posts_created_at__id_idx" on "posts" ("created_at", "id");
create index "posts_updated_at__id_idx" on "posts" ("updated_at", "id");
