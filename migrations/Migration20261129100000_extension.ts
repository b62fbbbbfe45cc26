import { Migration } from '@mikro-orm/migrations';

/** The browser extension: upload policies the server issued, and the extension's shortcuts. */
export class Migration20261129100000_extension extends Migration {
  override name = 'Migration20261129100000_extension';

  override async up(): Promise<void> {
    this.addSql(`create table "upload" (
      "key" varchar(200) primary key,
      "user_id" bigint not null references "user" ("id") on delete cascade,
      "url" text not null,
      "expires_at" timestamptz not null,
      "completed_at" timestamptz null,
      "note_id" varchar(64) null,
      "created_at" timestamptz not null)`);
    this.addSql('create index "upload_user_id_index" on "upload" ("user_id")');
    this.addSql('create index "upload_expires_at_index" on "upload" ("expires_at")');
    this.addSql('alter table "user_setting" add column "shortcuts" jsonb null');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "user_setting" drop column if exists "shortcuts"');
    this.addSql('drop table if exists "upload"');
  }
}
