-- DATA LOSS: column posts.code: string → integer (values that do not convert are lost)
-- DATA LOSS: column posts.legacy (all its values)
-- DATA LOSS: table tags (all its rows)
-- restmint migration: alter table posts: drop legacy, code string → integer, index (code, id)
-- restmint migration: drop table tags

-- "posts" is rebuilt: SQLite cannot alter its columns in place (https://www.sqlite.org/lang_altertable.html#otheralter)
create table "new_posts" (
  "id" integer not null primary key autoincrement,
  "title" text not null,
  "price" integer,
  "code" integer,
  "author_id" integer,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "posts_author_id_fkey" foreign key ("author_id") references "authors" ("id") on delete restrict
);
insert into sqlite_sequence (name, seq) select 'new_posts', seq from sqlite_sequence where name = 'posts';
insert into "new_posts" ("id", "title", "price", "code", "author_id", "created_at", "updated_at")
select
  "id",
  "title",
  "price",
  case when ("code" glob '[0-9]*' or "code" glob '-[0-9]*') and substr("code", 2) not glob '*[^0-9]*' and length("code") <= 17 and abs(cast("code" as integer)) <= 9007199254740991 then cast("code" as integer) end,
  "author_id",
  "created_at",
  "updated_at"
from "posts";
drop table "posts";
alter table "new_posts" rename to "posts";
create index "posts_author_id_idx" on "posts" ("author_id");
create index "posts_price__id_idx" on "posts" ("price", "id");
create index "posts_code__id_idx" on "posts" ("code", "id");
create index "posts_created_at__id_idx" on "posts" ("created_at", "id");
create index "posts_updated_at__id_idx" on "posts" ("updated_at", "id");

drop table "tags";
