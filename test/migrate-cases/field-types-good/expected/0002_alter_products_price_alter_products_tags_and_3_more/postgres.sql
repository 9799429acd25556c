-- restmint migration: alter table products: add weight (decimal), add settings (json), price integer → decimal(18,2), tags array → json, index (weight, id)

drop index "products_price__id_idx";
alter table "products" alter column "price" type numeric(18, 2) using case when "price"::text ~ '^-?[0-9]+([.][0-9]+)?$' then case when abs(round("price"::text::numeric, 2)) < power(10::numeric, 16) then round("price"::text::numeric, 2) end end;
alter table "products" alter column "tags" type jsonb using "tags";
alter table "products" add column "weight" numeric(6, 3) default '0' not null;
alter table "products" add column "settings" jsonb;
create index "products_price__id_idx" on "products" ("price" nulls first, "id");
create index "products_weight__id_idx" on "products" ("weight", "id");
