import { Migration } from '@mikro-orm/migrations';

/**
 * Membership: orders (created → paid → refunded | closed; PRO days granted once, in the paying
 * transaction), the log of every change to a user's membership, the reminder mark, the user's
 * colour settings and feedback from the tools area.
 */
export class Migration20261128100000_membership extends Migration {
  override name = 'Migration20261128100000_membership';

  override async up(): Promise<void> {
    this.addSql(`create table "order" (
      "id" varchar(24) primary key,
      "user_id" bigint not null references "user" ("id") on delete cascade,
      "state" varchar(16) not null default 'created'
        check ("state" in ('created', 'paid', 'refunded', 'closed')),
      "source" varchar(16) not null check ("source" in ('stripe', 'wechat', 'alipay', 'admin')),
      "product_id" varchar(32) not null,
      "tier" varchar(16) not null check ("tier" in ('pro', 'superPro')),
      "pro_days" integer not null check ("pro_days" > 0),
      "amount" integer not null check ("amount" >= 0),
      "currency" char(3) not null,
      "description" text not null,
      "remark" text null,
      "checkout" jsonb null,
      "provider_ref" varchar(128) null,
      "created_at" timestamptz not null,
      "paid_at" timestamptz null,
      "ended_at" timestamptz null,
      "updated_at" timestamptz not null)`);
    this.addSql(
      `create index "order_user_created_index" on "order" ("user_id", "created_at" desc, "id" desc)`,
    );
    this.addSql(`create index "order_open_index" on "order" ("created_at") where "state" = 'created'`);

    this.addSql(`create table "membership_event" (
      "id" bigserial primary key,
      "user_id" bigint not null references "user" ("id") on delete cascade,
      "action" varchar(24) not null,
      "days" integer null,
      "order_id" varchar(24) null,
      "actor" varchar(64) not null,
      "detail" text null,
      "created_at" timestamptz not null)`);
    this.addSql(`create index "membership_event_user_index" on "membership_event" ("user_id", "created_at")`);

    this.addSql(`alter table "user" add column "pro_reminded_for" timestamptz null`);

    this.addSql(`create table "user_setting" (
      "user_id" bigint primary key references "user" ("id") on delete cascade,
      "text_tooltip_style" smallint null,
      "c1" varchar(7) null, "c2" varchar(7) null, "c3" varchar(7) null,
      "c4" varchar(7) null, "c5" varchar(7) null, "c6" varchar(7) null,
      "updated_at" timestamptz not null)`);

    this.addSql(`create table "feedback" (
      "id" bigserial primary key,
      "user_id" bigint not null references "user" ("id") on delete cascade,
      "kind" varchar(16) not null,
      "message" text not null,
      "contact" varchar(254) null,
      "context" jsonb not null default '{}',
      "created_at" timestamptz not null,
      "mailed_at" timestamptz null)`);
    this.addSql(`create index "feedback_user_created_index" on "feedback" ("user_id", "created_at")`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "feedback"');
    this.addSql('drop table if exists "user_setting"');
    this.addSql('alter table "user" drop column if exists "pro_reminded_for"');
    this.addSql('drop table if exists "membership_event"');
    this.addSql('drop table if exists "order"');
  }
}
