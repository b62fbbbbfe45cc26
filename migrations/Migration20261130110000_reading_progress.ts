import { Migration } from '@mikro-orm/migrations';

/**
 * Where the reader left a note, kept on the server so another device opens it there: the offset
 * in the note's plain text of the first line on screen (it survives another screen width) and
 * the share of the note read, for display. Not an exported column: saving it is no change a
 * sync sends (the note's change trigger only looks at exported columns).
 */
export class Migration20261130110000_reading_progress extends Migration {
  override name = 'Migration20261130110000_reading_progress';

  override async up(): Promise<void> {
    this.addSql(
      `alter table "note" add column "reading_offset" integer null,
         add column "reading_fraction" real null,
         add column "read_at" timestamptz null`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "note" drop column if exists "reading_offset",
         drop column if exists "reading_fraction",
         drop column if exists "read_at"`,
    );
  }
}
