-- DATA LOSS: column posts.code: string → integer (values that do not convert are lost)
-- DATA LOSS: column posts.legacy (all its values)
-- DATA LOSS: table tags (all its rows)
-- restmint migration: alter table posts: drop legacy, code string → integer, index (code, id)
-- restmint migration: drop table tags

alter table "posts" drop column "legacy";
alter table "posts" alter column "code" type bigint using case when "code" ~ '^-?[0-9]{1,16}$' then case when abs("code"::numeric) <= 9007199254740991 then "code"::bigint end end;
create index "posts_code__id_idx" on "posts" ("code" nulls first, "id");

drop table "tags";
