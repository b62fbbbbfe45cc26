import { Migration } from '@mikro-orm/migrations';

/** Open API tokens (server/domain/openapi/api-tokens.ts): one row per token, only its hash kept. */
export class Migration20261127100000_api_tokens extends Migration {
  override name = 'Migration20261127100000_api_tokens';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "api_token" (
         "id" bigserial primary key,
         "user_id" bigint not null references "user" ("id") on delete cascade,
         "name" varchar(100) not null,
         "scopes" text[] not null,
         "token_hash" varchar(64) not null unique,
         "token_hint" varchar(16) not null,
         "created_at" timestamptz not null,
         "expires_at" timestamptz null,
         "last_used_at" timestamptz null,
         "revoked_at" timestamptz null,
         constraint "api_token_scopes_check"
           check (cardinality("scopes") > 0 and "scopes" <@ array['read', 'write', 'daily']::text[]));`,
    );
    this.addSql(`create index "api_token_user_index" on "api_token" ("user_id", "created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_token";`);
  }
}
