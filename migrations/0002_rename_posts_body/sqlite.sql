-- restmint migration: alter table posts: rename body to content

-- "posts" is rebuilt: SQLite cannot alter its columns in place (https://www.sqlite.org/lang_altertable.html#otheralter)
create table "new_posts" (
  "id" integer not null primary key autoincrement,
  "title" text not null,
  "content" text,
  "price" real,
  "status" text default 'draft' not null,
  "published_at" text,
  "author_id" integer,
  "category_id" integer not null,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "posts_author_id_fkey" foreign key ("author_id") references "authors" ("id") on delete restrict,
  constraint "posts_category_id_fkey" foreign key ("category_id") references "categories" ("id") on delete restrict
);
insert into sqlite_sequence (name, seq) select 'new_posts', seq from sqlite_sequence where name = 'posts';
insert into "new_posts" ("id", "title", "content", "price", "status", "published_at", "author_id", "category_id", "created_at", "updated_at")
select
  "id",
  "title",
  "body",
  "price",
  "status",
  "published_at",
  "author_id",
  "category_id",
  "created_at",
  "updated_at"
from "posts";
drop table "posts";
alter table "new_posts" rename to "posts";
create index "posts_author_id_idx" on "posts" ("author_id");
create index "posts_category_id_idx" on "posts" ("category_id");
create index "posts_created_at__id_idx" on "posts" ("created_at", "id");
create index "posts_published_at__id_idx" on "posts" ("published_at", "id");
create index "posts_price__id_idx" on "posts" ("price", "id");
create index "posts_title__id_idx" on "posts" ("title", "id");
create index "posts_status__id_idx" on "posts" ("status", "id");
