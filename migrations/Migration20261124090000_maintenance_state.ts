import { Migration } from '@mikro-orm/migrations';

export class Migration20261124090000_maintenance_state extends Migration {
  override name = 'Migration20261124090000_maintenance_state';

  override up(): void | Promise<void> {
    // Which version of a one-time maintenance task the data is at. 'search-index': the tokenizer
    // version (SEARCH_TOKENS_VERSION in src/search/tokens.ts) the stored search vectors were built
    // with; the worker re-indexes once when it is behind (server/domain/search/reindex.ts).
    this.addSql(
      `create table "maintenance_state" ("name" varchar(64) not null, "version" integer not null, "updated_at" timestamptz not null, primary key ("name"));`,
    );
    // Vectors stored before this migration were built by tokenizer 1 (words of letters and digits
    // only); version 2 (terms keep their symbols) came with it. A new install has none to rebuild.
    this.addSql(
      `insert into "maintenance_state" ("name", "version", "updated_at") select 'search-index', case when exists (select 1 from "page") or exists (select 1 from "note") then 1 else 2 end, now();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "maintenance_state";`);
  }
}
