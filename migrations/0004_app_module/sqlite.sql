-- restmint migration: create table audits
-- restmint migration: alter table orders: add total (number), index (total, id)
-- restmint migration: alter table items: add line_total (number), index (line_total, id)

create table "audits" (
  "id" integer not null primary key autoincrement,
  "action" text not null,
  "resource" text not null,
  "record_id" integer not null,
  "actor" text,
  "created_at" text not null,
  "updated_at" text not null
);
create index "audits_record_id__id_idx" on "audits" ("record_id", "id");
create index "audits_created_at__id_idx" on "audits" ("created_at", "id");
create index "audits_updated_at__id_idx" on "audits" ("updated_at", "id");

alter table "orders" add column "total" real default 0 not null;
create index "orders_total__id_idx" on "orders" ("total", "id");

alter table "items" add column "line_total" real default 0 not null;
create index "items_line_total__id_idx" on "items" ("line_total", "id");
