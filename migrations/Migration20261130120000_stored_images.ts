import { Migration } from '@mikro-orm/migrations';

/**
 * Clipped images stored by Margin: one row per image URL of a note, stored (its key, type, size,
 * dimensions and content hash) or refused (why). A note deleted for good leaves its rows with no
 * note (`on delete set null`) until a job has removed their files; an account takes its rows with
 * it (its whole prefix of the store goes by a job of its own). `note.image` is the stored lead
 * image's address, for list rows.
 */
export class Migration20261130120000_stored_images extends Migration {
  override name = 'Migration20261130120000_stored_images';

  override async up(): Promise<void> {
    this.addSql(`create table "stored_file" (
      "id" bigserial primary key,
      "user_id" bigint not null references "user" ("id") on delete cascade,
      "note_id" varchar(32) null references "note" ("id") on delete set null,
      "source_url" text not null,
      "key" varchar(300) null,
      "content_type" varchar(32) null,
      "bytes" integer null,
      "width" integer null,
      "height" integer null,
      "hash" char(64) null,
      "error" varchar(32) null,
      "created_at" timestamptz not null)`);
    this.addSql(
      'create unique index "stored_file_note_source_unique" on "stored_file" ("note_id", md5("source_url"))',
    );
    this.addSql(
      'create index "stored_file_user_hash_index" on "stored_file" ("user_id", "hash") where "hash" is not null',
    );
    this.addSql(
      'create index "stored_file_user_source_index" on "stored_file" ("user_id", md5("source_url")) where "hash" is not null',
    );
    this.addSql(
      'create index "stored_file_orphan_index" on "stored_file" ("user_id") where "note_id" is null',
    );
    this.addSql('alter table "note" add column "image" text null');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "note" drop column if exists "image"');
    this.addSql('drop table if exists "stored_file"');
  }
}
