import { Migration } from '@mikro-orm/migrations';

/**
 * What each move of highlights into a daily note wrote (the note, whether the move made it, the
 * quoted block), so the move can be undone; `undone_at` makes a repeated undo a no-op. Kept a
 * day (DAILY_MOVE_UNDO_MS), purged by the user's next move. No key to the note: an undo that
 * deleted the note it made still finds its record.
 */
export class Migration20261130130000_daily_moves extends Migration {
  override name = 'Migration20261130130000_daily_moves';

  override async up(): Promise<void> {
    this.addSql(`create table "daily_move" (
      "user_id" bigint not null references "user" ("id") on delete cascade,
      "id" varchar(64) not null,
      "note_id" varchar(64) not null,
      "daily_date" varchar(10) not null,
      "created_note" boolean not null,
      "block" text not null,
      "undone_at" timestamptz null,
      "created_at" timestamptz not null,
      primary key ("user_id", "id"))`);
    this.addSql(
      `create index "daily_move_user_id_created_at_index" on "daily_move" ("user_id", "created_at")`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "daily_move"');
  }
}
