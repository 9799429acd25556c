-- restmint migration: alter table orders: add cancelled_at (datetime), add owner_sub (string), index (cancelled_at, id)

alter table "orders" add column "cancelled_at" text;
alter table "orders" add column "owner_sub" text;
create index "orders_cancelled_at__id_idx" on "orders" ("cancelled_at", "id");
