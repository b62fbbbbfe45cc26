import { Migration } from '@mikro-orm/migrations';

/**
 * One word per concept (docs/ARCHITECTURE.md, "Words"): a saved page is a `note`, a passage of it a
 * `highlight`. Renames only; no row changes. The old `note` table (highlights) moves aside first
 * so `page` can take its name.
 */
const RENAMES: [kind: 'table' | 'index' | 'constraint', table: string, from: string, to: string][] = [
  ['table', '', 'note', 'highlight'],
  ['table', '', 'page', 'note'],
  ['table', '', 'page_content', 'note_content'],
  ['constraint', 'highlight', 'note_pkey', 'highlight_pkey'],
  ['constraint', 'highlight', 'note_user_id_foreign', 'highlight_user_id_foreign'],
  ['constraint', 'highlight', 'note_page_id_foreign', 'highlight_note_id_foreign'],
  ['index', '', 'note_daily_index', 'highlight_daily_index'],
  ['index', '', 'note_daily_main_unique', 'highlight_daily_main_unique'],
  ['index', '', 'note_page_id_position_start_index', 'highlight_note_id_position_start_index'],
  ['index', '', 'note_search_index', 'highlight_search_index'],
  ['index', '', 'note_tags_index', 'highlight_tags_index'],
  ['index', '', 'note_user_id_created_at_index', 'highlight_user_id_created_at_index'],
  ['index', '', 'note_user_slot_created_index', 'highlight_user_slot_created_index'],
  ['constraint', 'note', 'page_pkey', 'note_pkey'],
  ['constraint', 'note', 'page_user_id_foreign', 'note_user_id_foreign'],
  ['constraint', 'note', 'page_folder_id_foreign', 'note_folder_id_foreign'],
  ['constraint', 'note', 'page_user_id_url_hash_unique', 'note_user_id_url_hash_unique'],
  ['index', '', 'page_folder_id_index', 'note_folder_id_index'],
  ['index', '', 'page_live_created_index', 'note_live_created_index'],
  ['index', '', 'page_live_flow_created_index', 'note_live_flow_created_index'],
  ['index', '', 'page_live_highlights_index', 'note_live_highlights_index'],
  ['index', '', 'page_live_updated_index', 'note_live_updated_index'],
  ['index', '', 'page_notes_search_index', 'note_highlights_search_index'],
  ['index', '', 'page_search_index', 'note_search_index'],
  ['index', '', 'page_tags_index', 'note_tags_index'],
  ['index', '', 'page_trashed_index', 'note_trashed_index'],
  ['index', '', 'page_unfinished_clip_index', 'note_unfinished_clip_index'],
  ['index', '', 'page_user_id_created_at_index', 'note_user_id_created_at_index'],
  ['constraint', 'note_content', 'page_content_pkey', 'note_content_pkey'],
  ['constraint', 'note_content', 'page_content_page_id_foreign', 'note_content_note_id_foreign'],
];

const COLUMNS: [table: string, from: string, to: string][] = [
  ['highlight', 'page_id', 'note_id'],
  ['note_content', 'page_id', 'note_id'],
  ['note', 'notes_vector', 'highlights_vector'],
];

function renameSql([kind, table, from, to]: (typeof RENAMES)[number]): string {
  if (kind === 'table') return `alter table "${from}" rename to "${to}";`;
  if (kind === 'index') return `alter index "${from}" rename to "${to}";`;
  return `alter table "${table}" rename constraint "${from}" to "${to}";`;
}

export class Migration20261124110000_note_vocabulary extends Migration {
  override name = 'Migration20261124110000_note_vocabulary';

  override up(): void | Promise<void> {
    for (const rename of RENAMES) this.addSql(renameSql(rename));
    for (const [table, from, to] of COLUMNS)
      this.addSql(`alter table "${table}" rename column "${from}" to "${to}";`);
  }

  override down(): void | Promise<void> {
    for (const [table, from, to] of COLUMNS.toReversed())
      this.addSql(`alter table "${table}" rename column "${to}" to "${from}";`);
    for (const [kind, table, from, to] of RENAMES.toReversed())
      this.addSql(renameSql([kind, table, to, from]));
  }
}
