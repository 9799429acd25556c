-- restmint migration: alter table posts

create unique index "posts_author_id__slug_key" on "posts" ("author_id", "slug");
