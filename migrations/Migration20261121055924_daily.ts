import { Migration } from '@mikro-orm/migrations';

export class Migration20261121055924_daily extends Migration {
  override name = 'Migration20261121055924_daily';

  override up(): void | Promise<void> {
    this.addSql(`alter table "note" add "version" int not null default 1;`);
    // The daily timeline: a user's daily notes by day.
    this.addSql(
      `create index "note_daily_index" on "note" ("user_id", "daily_date" desc, "created_at") where "kind" = 3;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "note" drop column "version";`);
  }
}
