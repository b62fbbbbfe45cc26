import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks (server/domain/webhooks): the endpoints users register, and one delivery row per
 * event and endpoint, written in the transaction of the change (an outbox) and kept as the log.
 */
export class Migration20261127110000_webhooks extends Migration {
  override name = 'Migration20261127110000_webhooks';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "webhook_endpoint" (
         "id" varchar(32) primary key,
         "user_id" bigint not null references "user" ("id") on delete cascade,
         "url" text not null,
         "events" text[] not null,
         "secret" varchar(64) not null,
         "enabled" boolean not null default true,
         "disabled_reason" varchar(16) null,
         "disabled_at" timestamptz null,
         "failing_since" timestamptz null,
         "retry_at" timestamptz null,
         "created_at" timestamptz not null,
         "updated_at" timestamptz not null);`,
    );
    this.addSql(
      `create index "webhook_endpoint_user_id_created_at_index" on "webhook_endpoint" ("user_id", "created_at");`,
    );
    this.addSql(
      `create table "webhook_delivery" (
         "id" bigserial primary key,
         "endpoint_id" varchar(32) not null references "webhook_endpoint" ("id") on delete cascade,
         "event_id" varchar(32) not null,
         "event_type" varchar(32) not null,
         "payload" jsonb not null,
         "status" varchar(16) not null default 'pending',
         "attempts" integer not null default 0,
         "last_status" smallint null,
         "last_error" varchar(32) null,
         "created_at" timestamptz not null,
         "last_attempt_at" timestamptz null,
         "finished_at" timestamptz null,
         constraint "webhook_delivery_status_check" check ("status" in ('pending', 'delivered', 'failed')));`,
    );
    // The log of one endpoint, newest first; and its queue, oldest first, without the log's rows.
    this.addSql(
      `create index "webhook_delivery_endpoint_id_id_index" on "webhook_delivery" ("endpoint_id", "id");`,
    );
    this.addSql(
      `create index "webhook_delivery_pending_index" on "webhook_delivery" ("endpoint_id", "id")
       where "status" = 'pending';`,
    );
    this.addSql(
      `create index "webhook_delivery_finished_at_index" on "webhook_delivery" ("finished_at")
       where "finished_at" is not null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "webhook_delivery", "webhook_endpoint";`);
  }
}
