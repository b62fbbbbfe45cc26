import { Migration } from '@mikro-orm/migrations';

export class Migration20261123200000_note_owner_key extends Migration {
  override name = 'Migration20261123200000_note_owner_key';

  override up(): void | Promise<void> {
    // Note ids come from clients: they are unique per owner, not across the install, so nobody
    // can create a note under an id another user is about to use.
    this.addSql(`alter table "note" drop constraint "note_pkey";`);
    this.addSql(`alter table "note" add constraint "note_pkey" primary key ("user_id", "id");`);
    // A day's own note was found by an id derived from the user and the date, which anyone could
    // compute. It is now marked, unique per user and day, and keeps an unguessable id.
    this.addSql(`alter table "note" add "daily_main" boolean not null default false;`);
    this.addSql(
      `update "note" set "daily_main" = true, "id" = replace(gen_random_uuid()::text, '-', '') where "kind" = 3 and "id" like 'daily-%';`,
    );
    this.addSql(
      `create unique index "note_daily_main_unique" on "note" ("user_id", "daily_date") where "daily_main";`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "note_daily_main_unique";`);
    this.addSql(
      `update "note" set "id" = 'daily-' || "user_id" || '-' || replace("daily_date", '-', '') where "daily_main";`,
    );
    this.addSql(`alter table "note" drop column "daily_main";`);
    this.addSql(`alter table "note" drop constraint "note_pkey";`);
    this.addSql(`alter table "note" add constraint "note_pkey" primary key ("id");`);
  }
}
