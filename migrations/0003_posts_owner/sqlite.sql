-- restmint migration: alter table posts: add owner_sub (string)

alter table "posts" add column "owner_sub" text;
