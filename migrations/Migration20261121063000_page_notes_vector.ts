import { Migration } from '@mikro-orm/migrations';

export class Migration20261121063000_page_notes_vector extends Migration {
  override name = 'Migration20261121063000_page_notes_vector';

  override up(): void | Promise<void> {
    // A page's highlights and annotations as one tsvector on the page row, so the library search
    // matches "page text or any of its notes" with two index lookups instead of hashing every
    // matching note (src/search/tokens.ts builds it; server/domain/search/search-index.ts writes it).
    this.addSql(`alter table "page" add "notes_vector" tsvector not null default '';`);
    this.addSql(`create index "page_notes_search_index" on "page" using gin ("user_id", "notes_vector");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "page_notes_search_index";`);
    this.addSql(`alter table "page" drop column "notes_vector";`);
  }
}
