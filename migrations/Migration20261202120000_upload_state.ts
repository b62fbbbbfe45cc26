import { Migration } from '@mikro-orm/migrations';

/**
 * An upload key is single-use: its row says whether it may still take a file (issued), holds one
 * (uploaded) or is done with (spent), so a policy cannot store a second file after its first was
 * saved, and the purge can tell every stored upload's owner.
 */
export class Migration20261202120000_upload_state extends Migration {
  override name = 'Migration20261202120000_upload_state';

  override async up(): Promise<void> {
    this.addSql(`alter table "upload" add column "state" varchar(16) not null default 'issued'
      check ("state" in ('issued', 'uploaded', 'spent'))`);
    this.addSql(`update "upload" set "state" = 'spent' where "note_id" is not null`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "upload" drop column if exists "state"');
  }
}
