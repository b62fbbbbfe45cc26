import { Migration } from '@mikro-orm/migrations';

export class Migration20261121054358_accounts extends Migration {
  override name = 'Migration20261121054358_accounts';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "auth_binding" ("id" bigserial primary key, "user_id" bigint not null, "provider" varchar(16) not null, "subject" varchar(255) not null, "email" varchar(254) null, "created_at" timestamptz not null);`,
    );
    this.addSql(
      `alter table "auth_binding" add constraint "auth_binding_provider_subject_unique" unique ("provider", "subject");`,
    );
    this.addSql(
      `alter table "auth_binding" add constraint "auth_binding_user_id_provider_unique" unique ("user_id", "provider");`,
    );

    this.addSql(
      `create table "verification_code" ("id" bigserial primary key, "email" varchar(254) not null, "purpose" varchar(16) not null, "user_id" bigint null, "salt" varchar(32) not null, "code_hash" varchar(64) not null, "attempts" smallint not null default 0, "expires_at" timestamptz not null, "consumed_at" timestamptz null, "created_at" timestamptz not null);`,
    );
    this.addSql(`create index "verification_code_user_id_index" on "verification_code" ("user_id");`);
    this.addSql(
      `create index "verification_code_email_purpose_index" on "verification_code" ("email", "purpose");`,
    );

    this.addSql(
      `alter table "auth_binding" add constraint "auth_binding_user_id_foreign" foreign key ("user_id") references "user" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "verification_code" add constraint "verification_code_user_id_foreign" foreign key ("user_id") references "user" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "auth_binding" cascade;`);
    this.addSql(`drop table if exists "verification_code" cascade;`);
  }
}
