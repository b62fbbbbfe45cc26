import { Migration } from '@mikro-orm/migrations';

/**
 * Device tickets bound to the code the plugin shows: a ticket can be registered by the plugin's
 * first poll before anyone confirmed it (no user or app yet), keeps the hash of that code and
 * the wrong codes tried, and is burned (no token for anyone) when a second account or too many
 * wrong codes try to confirm it.
 */
export class Migration20261202110000_device_codes extends Migration {
  override name = 'Migration20261202110000_device_codes';

  override async up(): Promise<void> {
    this.addSql(`alter table "device_ticket"
      alter column "user_id" drop not null,
      alter column "app" drop not null,
      add column "user_code_hash" varchar(64) null,
      add column "code_misses" smallint not null default 0,
      add column "burned_at" timestamptz null`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "device_ticket" where "user_id" is null or "app" is null`);
    this.addSql(`alter table "device_ticket"
      drop column if exists "burned_at",
      drop column if exists "code_misses",
      drop column if exists "user_code_hash",
      alter column "app" set not null,
      alter column "user_id" set not null`);
  }
}
