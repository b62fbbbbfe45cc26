import { Migration } from '@mikro-orm/migrations';

/**
 * Each counter of `note_count` and the notes it counts: web notes (kind 1; daily notes are not
 * counted) in or out of the trash, by flow as in src/enums.ts (later 2, shortlist 3, archive 9).
 * The one definition, for the triggers and the backfill.
 */
const COUNTERS = {
  live: `"kind" = 1 and "trashed_at" is null`,
  later: `"kind" = 1 and "trashed_at" is null and "flow" = 2`,
  shortlist: `"kind" = 1 and "trashed_at" is null and "flow" = 3`,
  archive: `"kind" = 1 and "trashed_at" is null and "flow" = 9`,
  untagged: `"kind" = 1 and "trashed_at" is null and "tags" = '{}'`,
  trashed: `"kind" = 1 and "trashed_at" is not null`,
};
const NAMES = Object.keys(COUNTERS).map((name) => `"${name}"`);

/**
 * Adds to each owner's counts what the rows of `sources` add (sign 1) or take away (-1), in one
 * statement: owners' rows are written in user id order, so two statements over several users
 * (the trash purge) cannot deadlock on them; an owner whose counts do not move is not touched;
 * an owner whose account is being deleted (the notes go by cascade) gets no row back.
 */
function addCounts(sources: [table: string, sign: 1 | -1][]): string {
  const rows = sources.map(
    ([table, sign]) =>
      `select "user_id", ${Object.entries(COUNTERS)
        .map(([name, condition]) => `case when ${condition} then ${sign} else 0 end as "${name}"`)
        .join(', ')} from "${table}"`,
  );
  return `insert into "note_count" as c ("user_id", ${NAMES.join(', ')})
    select d.* from (
      select "user_id", ${NAMES.map((n) => `sum(${n}) as ${n}`).join(', ')}
      from (${rows.join(' union all ')}) r
      group by "user_id"
      having (${NAMES.map((n) => `sum(${n})`).join(', ')}) <> (${NAMES.map(() => '0').join(', ')})
    ) d
    where exists (select 1 from "user" u where u."id" = d."user_id")
    order by d."user_id"
    on conflict ("user_id") do update set ${NAMES.map((n) => `${n} = c.${n} + excluded.${n}`).join(', ')}`;
}

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

/**
 * The left navigation's counts, kept per user in `note_count` by triggers on `note`, so reading
 * them is one row however many notes a user has (counting the notes took seconds at 200,000).
 * Triggers, not the services, keep them: every write to a note counts, whichever code or SQL
 * makes it (clip, trash, restore, purge, tags, a deleted account, a migration). They run once per
 * statement on its changed rows, so a bulk change updates each owner's row once; rows are
 * updated by adding the statement's net change, so parallel writers stay exact (each waits for
 * the row lock and adds to the committed value), and a statement that changes no count, such as
 * a highlight count or a search vector, does not touch the row. A transaction that moves a
 * count holds its owner's row until it commits; were it then to wait for another note's row
 * lock, a statement of the same user holding that lock and waiting for the counts row would
 * deadlock with it, so a transaction moves counts in its last statement that locks other notes
 * (today only saving a page's HTML moves one early, and then touches only its new note). The
 * 24 Hours count moves with time, so it is no counter: server/domain/notes/note-counts.ts reads
 * it from the indexes on created_at.
 */
export class Migration20261125100000_note_counts extends Migration {
  override name = 'Migration20261125100000_note_counts';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "note_count" ("user_id" bigint not null, ${NAMES.map((n) => `${n} integer not null default 0`).join(', ')},
         primary key ("user_id"),
         constraint "note_count_user_id_foreign" foreign key ("user_id") references "user" ("id") on delete cascade);`,
    );
    for (const [event, { referencing, sources }] of Object.entries(TRIGGERS)) {
      this.addSql(
        `create function "note_count_${event}"() returns trigger language plpgsql as $$
         begin
           ${addCounts(sources as [string, 1 | -1][])};
           return null;
         end $$;`,
      );
      this.addSql(
        `create trigger "note_count_${event}" after ${event} on "note" referencing ${referencing}
         for each statement execute function "note_count_${event}"();`,
      );
    }
    // The triggers lock the note table until this commits, so the backfill misses no write.
    this.addSql(`${addCounts([['note', 1]])};`);
  }

  override down(): void | Promise<void> {
    for (const event of Object.keys(TRIGGERS)) {
      this.addSql(`drop trigger if exists "note_count_${event}" on "note";`);
      this.addSql(`drop function if exists "note_count_${event}"();`);
    }
    this.addSql(`drop table if exists "note_count";`);
  }
}
