import { Migration } from '@mikro-orm/migrations';

export class Migration20261121053701_initial extends Migration {
  override name = 'Migration20261121053701_initial';

  override up(): void | Promise<void> {
    // Trigram indexes serve substring search on titles and URLs.
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(
      `create table "user" ("id" bigserial primary key, "email" varchar(254) null, "password_hash" text null, "nickname" varchar(64) not null, "account_id" varchar(24) not null, "language" varchar(8) null, "theme" varchar(1) null, "member_level" smallint not null default 0, "pro_expires_at" timestamptz null, "time_zone" varchar(64) not null default 'UTC', "created_at" timestamptz not null, "updated_at" timestamptz not null);`,
    );
    this.addSql(`alter table "user" add constraint "user_email_unique" unique ("email");`);
    this.addSql(`alter table "user" add constraint "user_account_id_unique" unique ("account_id");`);

    this.addSql(
      `create table "session" ("token_hash" varchar(64) not null, "user_id" bigint not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "last_seen_at" timestamptz not null, "user_agent" varchar(512) null, "ip" varchar(64) null, "remember_me" boolean not null default false, primary key ("token_hash"));`,
    );
    this.addSql(`create index "session_user_id_index" on "session" ("user_id");`);
    this.addSql(`create index "session_expires_at_index" on "session" ("expires_at");`);

    this.addSql(
      `alter table "session" add constraint "session_user_id_foreign" foreign key ("user_id") references "user" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "session" drop constraint "session_user_id_foreign";`);

    this.addSql(`drop table if exists "user" cascade;`);
    this.addSql(`drop table if exists "session" cascade;`);
  }
}
