-- restmint migration: alter table comments: add deleted_at (datetime)
-- restmint migration: create table tags
-- restmint migration: create table post_tags
-- restmint migration: alter table products: add list_price (decimal), index (list_price, id)

alter table "comments" add column "deleted_at" text;

create table "tags" (
  "id" integer not null primary key autoincrement,
  "name" text not null,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "tags_name_key" unique ("name")
);
create index "tags_name__id_idx" on "tags" ("name", "id");
create index "tags_created_at__id_idx" on "tags" ("created_at", "id");
create index "tags_updated_at__id_idx" on "tags" ("updated_at", "id");

create table "post_tags" (
  "id" integer not null primary key autoincrement,
  "post_id" integer not null,
  "tag_id" integer not null,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "post_tags_post_id_fkey" foreign key ("post_id") references "posts" ("id") on delete cascade,
  constraint "post_tags_tag_id_fkey" foreign key ("tag_id") references "tags" ("id") on delete cascade
);
create index "post_tags_post_id_idx" on "post_tags" ("post_id");
create index "post_tags_tag_id_idx" on "post_tags" ("tag_id");
create index "post_tags_created_at__id_idx" on "post_tags" ("created_at", "id");
create index "post_tags_updated_at__id_idx" on "post_tags" ("updated_at", "id");
create unique index "post_tags_post_id__tag_id_key" on "post_tags" ("post_id", "tag_id");

alter table "products" add column "list_price" text;
create index "products_list_price__id_idx" on "products" ("list_price", "id");
