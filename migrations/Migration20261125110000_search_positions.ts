import { Migration } from '@mikro-orm/migrations';

export class Migration20261125110000_search_positions extends Migration {
  override name = 'Migration20261125110000_search_positions';

  override up(): void | Promise<void> {
    // Search tokenizer 3 stores CJK bigrams with their positions, so a run of three or more
    // characters is a phrase (src/search/tokens.ts). The GIN indexes stay as they are (they hold
    // lexemes, not positions); the stored vectors are rebuilt by the worker's one-time re-index,
    // which runs because the recorded version (2) is behind, and until it has finished the search
    // matches such runs the old way: bigrams, then a substring check. A new install has nothing
    // to rebuild.
    this.addSql(
      `update "maintenance_state" set "version" = 3, "updated_at" = now() where "name" = 'search-index' and "version" = 2 and not exists (select 1 from "note") and not exists (select 1 from "highlight");`,
    );
  }

  override down(): void | Promise<void> {
    // Tokenizer 2 reads version-3 vectors as they are: it ignores positions and the mark.
    this.addSql(
      `update "maintenance_state" set "version" = 2 where "name" = 'search-index' and "version" = 3;`,
    );
  }
}
