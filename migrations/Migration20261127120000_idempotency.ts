import { Migration } from '@mikro-orm/migrations';

/**
 * Open API answers kept by `Idempotency-Key`, so a retried POST gets the first answer instead
 * of making a second note or highlight. `status` is null while the first request still runs.
 */
export class Migration20261127120000_idempotency extends Migration {
  override name = 'Migration20261127120000_idempotency';

  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_record" (
      "user_id" bigint not null references "user" ("id") on delete cascade,
      "key" varchar(255) not null,
      "fingerprint" char(64) not null,
      "status" smallint null,
      "body" jsonb null,
      "created_at" timestamptz not null,
      primary key ("user_id", "key"))`);
    this.addSql(`create index "idempotency_record_created_at_index" on "idempotency_record" ("created_at")`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "idempotency_record"');
  }
}
