import { Migration } from '@mikro-orm/migrations';
import { COUNTERS, type Counters, countFunctions } from './Migration20261125100000_note_counts.ts';

/**
 * No Tag is a web note outside the trash that carries no tag, itself or through a highlight: a
 * note whose tags are all on its highlights is listed under those tags (note-tags.ts), so not
 * under No Tag. `highlight_tags` moves with its highlights (Migration20261201100000), so the
 * counter triggers on `note` see each change.
 */
const UNTAGGED: Counters = {
  ...COUNTERS,
  untagged: `"kind" = 1 and "trashed_at" is null and "tags" = '{}' and "highlight_tags" = '{}'`,
};

/** Every owner's untagged count recounted by `counters`' definition, writes to notes held off meanwhile. */
function recountUntagged(counters: Counters): string[] {
  return [
    'lock table "note" in share row exclusive mode;',
    `update "note_count" c set "untagged" =
       (select count(*) from "note" where "user_id" = c."user_id" and ${counters.untagged});`,
  ];
}

export class Migration20261204100000_untagged_counts_highlight_tags extends Migration {
  override name = 'Migration20261204100000_untagged_counts_highlight_tags';

  override up(): void | Promise<void> {
    for (const sql of [...countFunctions(UNTAGGED), ...recountUntagged(UNTAGGED)]) this.addSql(sql);
  }

  override down(): void | Promise<void> {
    for (const sql of [...countFunctions(COUNTERS), ...recountUntagged(COUNTERS)]) this.addSql(sql);
  }
}
