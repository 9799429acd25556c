-- restmint migration: alter table posts: rename body to content

alter table "posts" rename column "body" to "content";
