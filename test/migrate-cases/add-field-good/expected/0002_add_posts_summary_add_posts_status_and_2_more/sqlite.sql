-- restmint migration: alter table posts: add summary (string), add status (string), add rating (number, existing rows 0), index (rating, id)

-- "posts" is rebuilt: SQLite cannot alter its columns in place (https://www.sqlite.org/lang_altertable.html#otheralter)
create table "new_posts" (
  "id" integer not null primary key autoincrement,
  "title" text not null,
  "price" integer,
  "summary" text,
  "status" text default 'draft' not null,
  "rating" real not null,
  "author_id" integer,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "posts_author_id_fkey" foreign key ("author_id") references "authors" ("id") on delete restrict
);
insert into sqlite_sequence (name, seq) select 'new_posts', seq from sqlite_sequence where name = 'posts';
insert into "new_posts" ("id", "title", "price", "summary", "status", "rating", "author_id", "created_at", "updated_at")
select
  "id",
  "title",
  "price",
  null,
  'draft',
  0,
  "author_id",
  "created_at",
  "updated_at"
from "posts";
drop table "posts";
alter table "new_posts" rename to "posts";
create index "posts_author_id_idx" on "posts" ("author_id");
create index "posts_price__id_idx" on "posts" ("price", "id");
create index "posts_rating__id_idx" on "posts" ("rating", "id");
create index "posts_created_at__id_idx" on "posts" ("created_at", "id");
create index "posts_updated_at__id_idx" on "posts" ("updated_at", "id");
