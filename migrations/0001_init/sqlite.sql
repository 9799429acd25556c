-- restmint migration: create table orders
-- restmint migration: create table products
-- restmint migration: create table items
-- restmint migration: create table adjustments
-- restmint migration: create table authors
-- restmint migration: create table categories
-- restmint migration: create table posts
-- restmint migration: create table comments

create table "orders" (
  "id" integer not null primary key autoincrement,
  "status" text default 'pending' not null,
  "placed_on" text,
  "created_at" text not null,
  "updated_at" text not null
);
create index "orders_status__id_idx" on "orders" ("status", "id");
create index "orders_placed_on__id_idx" on "orders" ("placed_on", "id");
create index "orders_created_at__id_idx" on "orders" ("created_at", "id");
create index "orders_updated_at__id_idx" on "orders" ("updated_at", "id");

create table "products" (
  "id" integer not null primary key autoincrement,
  "title" text not null,
  "price" real not null,
  "in_stock" integer default 1 not null,
  "created_at" text not null,
  "updated_at" text not null
);
create index "products_price__id_idx" on "products" ("price", "id");
create index "products_in_stock__id_idx" on "products" ("in_stock", "id");
create index "products_created_at__id_idx" on "products" ("created_at", "id");
create index "products_updated_at__id_idx" on "products" ("updated_at", "id");

create table "items" (
  "id" integer not null primary key autoincrement,
  "quantity" integer not null,
  "note" text,
  "order_id" integer not null,
  "product_id" integer,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "items_order_id_fkey" foreign key ("order_id") references "orders" ("id") on delete restrict,
  constraint "items_product_id_fkey" foreign key ("product_id") references "products" ("id") on delete restrict
);
create index "items_order_id_idx" on "items" ("order_id");
create index "items_product_id_idx" on "items" ("product_id");
create index "items_quantity__id_idx" on "items" ("quantity", "id");
create index "items_created_at__id_idx" on "items" ("created_at", "id");
create index "items_updated_at__id_idx" on "items" ("updated_at", "id");

create table "adjustments" (
  "id" integer not null primary key autoincrement,
  "reason" text not null,
  "amount" real not null,
  "item_id" integer not null,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "adjustments_item_id_fkey" foreign key ("item_id") references "items" ("id") on delete cascade
);
create index "adjustments_item_id_idx" on "adjustments" ("item_id");
create index "adjustments_reason__id_idx" on "adjustments" ("reason", "id");
create index "adjustments_amount__id_idx" on "adjustments" ("amount", "id");
create index "adjustments_created_at__id_idx" on "adjustments" ("created_at", "id");
create index "adjustments_updated_at__id_idx" on "adjustments" ("updated_at", "id");

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

create table "categories" (
  "id" integer not null primary key autoincrement,
  "name" text not null,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "categories_name_key" unique ("name")
);
create index "categories_created_at__id_idx" on "categories" ("created_at", "id");
create index "categories_updated_at__id_idx" on "categories" ("updated_at", "id");

create table "posts" (
  "id" integer not null primary key autoincrement,
  "title" text not null,
  "body" text,
  "price" real,
  "status" text default 'draft' not null,
  "published_at" text,
  "owner_sub" text,
  "author_id" integer,
  "category_id" integer not null,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "posts_author_id_fkey" foreign key ("author_id") references "authors" ("id") on delete restrict,
  constraint "posts_category_id_fkey" foreign key ("category_id") references "categories" ("id") on delete restrict
);
create index "posts_author_id_idx" on "posts" ("author_id");
create index "posts_category_id_idx" on "posts" ("category_id");
create index "posts_created_at__id_idx" on "posts" ("created_at", "id");
create index "posts_published_at__id_idx" on "posts" ("published_at", "id");
create index "posts_price__id_idx" on "posts" ("price", "id");
create index "posts_title__id_idx" on "posts" ("title", "id");
create index "posts_status__id_idx" on "posts" ("status", "id");

create table "comments" (
  "id" integer not null primary key autoincrement,
  "body" text not null,
  "author_email" text,
  "post_id" integer not null,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "comments_post_id_fkey" foreign key ("post_id") references "posts" ("id") on delete cascade
);
create index "comments_post_id_idx" on "comments" ("post_id");
create index "comments_created_at__id_idx" on "comments" ("created_at", "id");
create index "comments_updated_at__id_idx" on "comments" ("updated_at", "id");
