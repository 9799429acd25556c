-- restmint migration: alter table posts: rename title to headline

alter table "posts" rename column "title" to "headline";
alter index "posts_title__id_idx" rename to "posts_headline__id_idx";
