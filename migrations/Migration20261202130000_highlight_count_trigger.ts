import { Migration } from '@mikro-orm/migrations';

/** The highlights a note's `highlight_count` counts: highlights and image highlights (core types 1 and 2), not text notes. */
const COUNTED = `"note_id" is not null and "core_type" in (1, 2)`;

const TRIGGERS = {
  insert: { referencing: 'new table as "new_rows"', sources: [['new_rows', 1]] },
  update: {
    referencing: 'old table as "old_rows" new table as "new_rows"',
    sources: [
      ['new_rows', 1],
      ['old_rows', -1],
    ],
  },
  delete: { referencing: 'old table as "old_rows"', sources: [['old_rows', -1]] },
} satisfies Record<string, { referencing: string; sources: [string, 1 | -1][] }>;

/** Adds to each note's count what the statement's rows add or take away, each note once, in id order. */
function moveCounts(sources: [table: string, sign: 1 | -1][]): string {
  const rows = sources.map(
    ([table, sign]) => `select "note_id", ${sign} as "delta" from "${table}" where ${COUNTED}`,
  );
  return `update "note" n set "highlight_count" = greatest(n."highlight_count" + d."delta", 0)
    from (
      select "note_id", sum("delta")::int as "delta" from (${rows.join(' union all ')}) r
      group by "note_id" having sum("delta") <> 0 order by "note_id"
    ) d
    where n."id" = d."note_id"`;
}

/**
 * A note's highlight count is kept by triggers on `highlight`, as the navigation's counts are kept
 * on `note` (Migration20261125100000_note_counts): every write counts, whichever code makes it,
 * once per statement. The services used to move it by hand on create and delete; the count is
 * rebuilt here so any drift from before is gone.
 */
export class Migration20261202130000_highlight_count_trigger extends Migration {
  override name = 'Migration20261202130000_highlight_count_trigger';

  override up(): void | Promise<void> {
    for (const [event, { referencing, sources }] of Object.entries(TRIGGERS)) {
      this.addSql(
        `create function "highlight_count_${event}"() returns trigger language plpgsql as $$
         begin
           ${moveCounts(sources as [string, 1 | -1][])};
           return null;
         end $$;`,
      );
      this.addSql(
        `create trigger "highlight_count_${event}" after ${event} on "highlight" referencing ${referencing}
         for each statement execute function "highlight_count_${event}"();`,
      );
    }
    this.addSql(
      `update "note" n set "highlight_count" = coalesce(
         (select count(*) from "highlight" h where h."note_id" = n."id" and h."core_type" in (1, 2)), 0)
       where n."highlight_count" is distinct from coalesce(
         (select count(*) from "highlight" h where h."note_id" = n."id" and h."core_type" in (1, 2)), 0)`,
    );
  }

  override down(): void | Promise<void> {
    for (const event of Object.keys(TRIGGERS)) {
      this.addSql(`drop trigger if exists "highlight_count_${event}" on "highlight";`);
      this.addSql(`drop function if exists "highlight_count_${event}"();`);
    }
  }
}
