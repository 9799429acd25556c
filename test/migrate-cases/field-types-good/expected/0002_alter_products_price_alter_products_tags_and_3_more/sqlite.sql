-- restmint migration: alter table products: add weight (decimal), add settings (json), price integer → decimal(18,2), tags array → json, index (weight, id)

-- "products" is rebuilt: SQLite cannot alter its columns in place (https://www.sqlite.org/lang_altertable.html#otheralter)
create table "new_products" (
  "id" integer not null primary key autoincrement,
  "name" text not null,
  "price" text,
  "tags" text,
  "weight" text default '1' not null,
  "settings" text,
  "created_at" text not null,
  "updated_at" text not null
);
insert into sqlite_sequence (name, seq) select 'new_products', seq from sqlite_sequence where name = 'products';
insert into "new_products" ("id", "name", "price", "tags", "weight", "settings", "created_at", "updated_at")
select
  "id",
  "name",
  restmint_decimal_key(cast("price" as text), 18, 2),
  "tags",
  '1',
  null,
  "created_at",
  "updated_at"
from "products";
drop table "products";
alter table "new_products" rename to "products";
create index "products_price__id_idx" on "products" ("price", "id");
create index "products_weight__id_idx" on "products" ("weight", "id");
create index "products_created_at__id_idx" on "products" ("created_at", "id");
create index "products_updated_at__id_idx" on "products" ("updated_at", "id");
