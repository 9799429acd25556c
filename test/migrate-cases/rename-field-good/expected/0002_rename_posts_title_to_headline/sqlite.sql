-- restmint migration: alter table posts: rename title to headline

drop index "posts_title__id_idx";
alter table "posts" rename column "title" to "headline";
create index "posts_headline__id_idx" on "posts" ("headline", "id");
