import { Migration } from '@mikro-orm/migrations';

export class Migration20261121054746_pages extends Migration {
  override name = 'Migration20261121054746_pages';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "page" ("id" varchar(32) not null, "user_id" bigint not null, "url" text not null, "url_hash" varchar(64) not null, "title" text not null default '', "site_name" varchar(255) null, "author" varchar(255) null, "published_at" timestamptz null, "lead_image_url" text null, "excerpt" text not null default '', "lang" varchar(16) null, "word_count" int not null default 0, "flow" smallint not null default 1, "trashed_at" timestamptz null, "tags" text[] not null default '{}', "clip_status" smallint not null default 3, "clip_error" varchar(64) null, "clip_attempts" smallint not null default 0, "source" varchar(8) not null default 'url', "highlight_count" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, "clipped_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "page_user_id_created_at_index" on "page" ("user_id", "created_at");`);
    this.addSql(
      `alter table "page" add constraint "page_user_id_url_hash_unique" unique ("user_id", "url_hash");`,
    );
    // The stale-clip sweep reads only pages still queued (3) or processing (4).
    this.addSql(
      `create index "page_unfinished_clip_index" on "page" ("updated_at") where "clip_status" in (3, 4);`,
    );

    this.addSql(
      `create table "page_content" ("page_id" varchar(32) not null, "original_html" text null, "content_html" text not null default '', "text" text not null default '', "updated_at" timestamptz not null, primary key ("page_id"));`,
    );

    this.addSql(
      `alter table "page" add constraint "page_user_id_foreign" foreign key ("user_id") references "user" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "page_content" add constraint "page_content_page_id_foreign" foreign key ("page_id") references "page" ("id") on update cascade on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "page_content" drop constraint "page_content_page_id_foreign";`);

    this.addSql(`drop table if exists "page" cascade;`);
    this.addSql(`drop table if exists "page_content" cascade;`);
  }
}
