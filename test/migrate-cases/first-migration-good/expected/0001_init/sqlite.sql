-- restmint migration: create table authors
-- restmint migration: create table posts
-- restmint migration: create table comments

create table "authors" (
  "id" integer not null primary key autoincrement,
  "name" text not null,
  "email" text,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "authors_email_key" unique ("email")
);
create index "authors_name__id_idx" on "authors" ("name", "id");
create index "authors_created_at__id_idx" on "authors" ("created_at", "id");
create index "authors_updated_at__id_idx" on "authors" ("updated_at", "id");

create table "posts" (
  "id" integer not null primary key autoincrement,
  "title" text not null,
  "price" real,
  "published" integer default 0 not null,
  "author_id" integer not null,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "posts_author_id_fkey" foreign key ("author_id") references "authors" ("id") on delete restrict
);
create index "posts_author_id_idx" on "posts" ("author_id");
create index "posts_title__id_idx" on "posts" ("title", "id");
create index "posts_price__id_idx" on "posts" ("price", "id");
create index "posts_published_idx" on "posts" ("published");

create table "comments" (
  "id" integer not null primary key autoincrement,
  "body" text not null,
  "post_id" integer not null,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "comments_post_id_fkey" foreign key ("post_id") references "posts" ("id") on delete cascade
);
create index "comments_post_id_idx" on "comments" ("post_id");
create index "comments_created_at__id_idx" on "comments" ("created_at", "id");
create index "comments_updated_at__id_idx" on "comments" ("updated_at", "id");
