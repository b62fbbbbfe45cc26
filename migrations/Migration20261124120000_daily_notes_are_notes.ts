import { Migration } from '@mikro-orm/migrations';

/**
 * A daily note is a note of kind 3 (the spec's "note kind 3 means daily note"), not a row among
 * the highlights: each day's own note and its extra entries move to `note`, their Markdown to
 * `note_content.text`, their search vector with them. Ids, days, versions and times are kept.
 */
export class Migration20261124120000_daily_notes_are_notes extends Migration {
  override name = 'Migration20261124120000_daily_notes_are_notes';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "note" add "kind" smallint not null default 1, add "daily_date" varchar(10) null,
         add "daily_main" boolean not null default false, add "version" int not null default 1,
         alter column "url" set default '', alter column "url_hash" drop not null;`,
    );
    this.addSql(
      `insert into "note" ("id", "user_id", "kind", "title", "clip_status", "source", "daily_date", "daily_main",
         "version", "created_at", "updated_at", "search_vector")
       select "id", "user_id", 3, '', 1, 'daily', "daily_date", "daily_main", "version", "created_at", "updated_at",
         "search_vector"
       from "highlight" where "kind" = 3;`,
    );
    this.addSql(
      `insert into "note_content" ("note_id", "text", "updated_at")
       select "id", "text", "updated_at" from "highlight" where "kind" = 3;`,
    );
    this.addSql(`delete from "highlight" where "kind" = 3;`);
    this.addSql(`drop index if exists "highlight_daily_index";`);
    this.addSql(`drop index if exists "highlight_daily_main_unique";`);
    this.addSql(
      `alter table "highlight" drop column "kind", drop column "daily_date", drop column "daily_main", drop column "version";`,
    );
    this.addSql(
      `create unique index "note_daily_main_unique" on "note" ("user_id", "daily_date") where "daily_main";`,
    );
    this.addSql(
      `create index "note_daily_index" on "note" ("user_id", "daily_date" desc, "created_at") where "kind" = 3;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "highlight" add "kind" smallint not null default 1, add "daily_date" varchar(10) null,
         add "daily_main" boolean not null default false, add "version" int not null default 1;`,
    );
    this.addSql(
      `insert into "highlight" ("id", "user_id", "kind", "core_type", "text", "daily_date", "daily_main", "version",
         "created_at", "updated_at", "search_vector")
       select n."id", n."user_id", 3, 6, coalesce(c."text", ''), n."daily_date", n."daily_main", n."version",
         n."created_at", n."updated_at", n."search_vector"
       from "note" n left join "note_content" c on c."note_id" = n."id" where n."kind" = 3;`,
    );
    this.addSql(`delete from "note" where "kind" = 3;`);
    this.addSql(`drop index if exists "note_daily_index";`);
    this.addSql(`drop index if exists "note_daily_main_unique";`);
    this.addSql(
      `alter table "note" drop column "kind", drop column "daily_date", drop column "daily_main", drop column "version";`,
    );
    this.addSql(`alter table "note" alter column "url" drop default, alter column "url_hash" set not null;`);
    this.addSql(
      `create unique index "highlight_daily_main_unique" on "highlight" ("user_id", "daily_date") where "daily_main";`,
    );
    this.addSql(
      `create index "highlight_daily_index" on "highlight" ("user_id", "daily_date" desc, "created_at") where "kind" = 3;`,
    );
  }
}
