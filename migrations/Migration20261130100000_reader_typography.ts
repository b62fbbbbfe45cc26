import { Migration } from '@mikro-orm/migrations';

/** The reader's typography, chosen in its "Aa" panel and kept with the account (null: the default). */
export class Migration20261130100000_reader_typography extends Migration {
  override name = 'Migration20261130100000_reader_typography';

  override async up(): Promise<void> {
    this.addSql(
      `alter table "user_setting" add column "reader_font" varchar(16) null,
         add column "reader_font_size" smallint null,
         add column "reader_line_height" real null,
         add column "reader_width" smallint null,
         add column "reader_justify" boolean null`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "user_setting" drop column if exists "reader_font",
         drop column if exists "reader_font_size",
         drop column if exists "reader_line_height",
         drop column if exists "reader_width",
         drop column if exists "reader_justify"`,
    );
  }
}
