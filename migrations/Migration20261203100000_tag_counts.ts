import { Migration } from '@mikro-orm/migrations';

type Sign = 1 | -1;

/**
 * What each row of a statement adds to its owner's tag counts, by the definition of
 * server/domain/notes/note-tags.ts: a web note (kind 1) outside the trash counts once for each
 * tag it carries itself or through a highlight; a highlight counts once for each of its tags,
 * wherever its note is.
 */
const CONTRIBUTIONS = {
  note: (table: string, sign: Sign) =>
    `select r."user_id", t."tag", ${sign} as "notes", 0 as "highlights" from "${table}" r
     cross join lateral (select distinct x as "tag" from unnest(r."tags" || r."highlight_tags") x) t
     where r."kind" = 1 and r."trashed_at" is null`,
  highlight: (table: string, sign: Sign) =>
    `select r."user_id", x as "tag", 0 as "notes", ${sign} as "highlights" from "${table}" r
     cross join unnest(r."tags") x`,
};

/**
 * Adds each owner's net change per tag in one statement, rows written in (user, tag) order so
 * two statements cannot deadlock on them; a tag whose counts do not move is not touched, and an
 * owner whose account is being deleted (its rows go by cascade) gets no row back.
 */
function addTagCounts(
  contribution: (table: string, sign: Sign) => string,
  sources: [string, Sign][],
): string {
  return `insert into "note_tag_count" as c ("user_id", "tag", "notes", "highlights")
    select d.* from (
      select "user_id", "tag", sum("notes")::int as "notes", sum("highlights")::int as "highlights"
      from (${sources.map(([table, sign]) => contribution(table, sign)).join(' union all ')}) r
      group by "user_id", "tag"
      having (sum("notes"), sum("highlights")) <> (0, 0)
    ) d
    where exists (select 1 from "user" u where u."id" = d."user_id")
    order by d."user_id", d."tag"
    on conflict ("user_id", "tag") do update
      set "notes" = c."notes" + excluded."notes", "highlights" = c."highlights" + excluded."highlights"`;
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
} satisfies Record<string, { referencing: string; sources: [string, Sign][] }>;

/**
 * The Tag section's counts, kept per user and tag in `note_tag_count` by triggers on `note` and
 * `highlight`, as `note_count` keeps the navigation's (Migration20261125100000_note_counts, whose
 * comment says why triggers and why the net change per statement): reading them is one row a
 * tag however many notes carry it (counting them took ~50 ms at 200,000 notes and grew with
 * them). A note's `highlight_tags` is itself kept by the highlight triggers, so a tagged
 * highlight moves its tag's highlight count here and, through its note's update, the note
 * count. A row left at zero stays (a tag that comes back reuses it); the reader skips it.
 */
export class Migration20261203100000_tag_counts extends Migration {
  override name = 'Migration20261203100000_tag_counts';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "note_tag_count" ("user_id" bigint not null, "tag" text not null,
         "notes" integer not null default 0, "highlights" integer not null default 0,
         primary key ("user_id", "tag"),
         constraint "note_tag_count_user_id_foreign" foreign key ("user_id") references "user" ("id") on delete cascade);`,
    );
    for (const [table, contribution] of Object.entries(CONTRIBUTIONS)) {
      for (const [event, { referencing, sources }] of Object.entries(TRIGGERS)) {
        const name = `${table}_tag_count_${event}`;
        this.addSql(
          `create function "${name}"() returns trigger language plpgsql as $$
           begin
             ${addTagCounts(contribution, sources as [string, Sign][])};
             return null;
           end $$;`,
        );
        this.addSql(
          `create trigger "${name}" after ${event} on "${table}" referencing ${referencing}
           for each statement execute function "${name}"();`,
        );
      }
    }
    // The triggers lock both tables until this commits, so the backfill misses no write.
    for (const [table, contribution] of Object.entries(CONTRIBUTIONS)) {
      this.addSql(`${addTagCounts(contribution, [[table, 1]])};`);
    }
  }

  override down(): void | Promise<void> {
    for (const table of Object.keys(CONTRIBUTIONS)) {
      for (const event of Object.keys(TRIGGERS)) {
        this.addSql(`drop trigger if exists "${table}_tag_count_${event}" on "${table}";`);
        this.addSql(`drop function if exists "${table}_tag_count_${event}"();`);
      }
    }
    this.addSql(`drop table if exists "note_tag_count";`);
  }
}
