import { Migration } from '@mikro-orm/migrations';

/** Every tag of a note's highlights, once each, in order: what `highlight_tags` holds. */
const HIGHLIGHT_TAGS_OF = (note: string) =>
  `coalesce((select array_agg(distinct x order by x) from "highlight" h cross join unnest(h."tags") x
     where h."note_id" = ${note}."id" and h."user_id" = ${note}."user_id"), '{}')`;

const TRIGGERS = {
  insert: {
    referencing: 'new table as "new_rows"',
    noteIds: `select "note_id" from "new_rows" where "tags" <> '{}'`,
  },
  update: {
    referencing: 'old table as "old_rows" new table as "new_rows"',
    noteIds: `select unnest(array[o."note_id", n."note_id"]) from "old_rows" o
      join "new_rows" n on n."user_id" = o."user_id" and n."id" = o."id"
      where o."tags" is distinct from n."tags"
        or (o."note_id" is distinct from n."note_id" and (o."tags" <> '{}' or n."tags" <> '{}'))`,
  },
  delete: {
    referencing: 'old table as "old_rows"',
    noteIds: `select "note_id" from "old_rows" where "tags" <> '{}'`,
  },
};

/**
 * The tags a note carries through its highlights (`note.highlight_tags`), so that the list
 * filtered by a tag finds the notes that carry it themselves or through a highlight by two GIN
 * indexes, and the Tag section counts them from the notes alone
 * (server/domain/notes/note-tags.ts). Triggers on `highlight` keep it, so every write path
 * counts: creating, editing and deleting highlights, merging or renaming tags, moving highlights
 * to a daily note, cascades. They run once per statement on the notes whose highlights' tags
 * changed: they first lock those notes in id order, then recount them in a statement of its own,
 * whose snapshot is taken after the locks, so it sees every highlight change committed before
 * (two transactions tagging highlights of one note cannot leave it without one of the tags).
 * The lock is `for no key update`, which the key-share lock a highlight insert's foreign key
 * check holds on its note does not block: `for update` would, and two inserts of tagged
 * highlights into one note would deadlock.
 * Not an exported column: the note's change trigger only looks at exported columns.
 */
export class Migration20261201100000_note_highlight_tags extends Migration {
  override name = 'Migration20261201100000_note_highlight_tags';

  override up(): void | Promise<void> {
    this.addSql(`alter table "note" add column "highlight_tags" text[] not null default '{}';`);
    this.addSql(`create index "note_highlight_tags_index" on "note" using gin ("highlight_tags");`);
    this.addSql(
      `create function "note_highlight_tags_refresh"("note_ids" text[]) returns void language plpgsql as $$
       begin
         if coalesce(cardinality("note_ids"), 0) = 0 then
           return;
         end if;
         perform 1 from "note" where "id" = any("note_ids") order by "id" for no key update;
         update "note" n set "highlight_tags" = t."tags"
           from (select m."id", ${HIGHLIGHT_TAGS_OF('m')} as "tags"
                 from "note" m where m."id" = any("note_ids")) t
           where n."id" = t."id" and n."highlight_tags" is distinct from t."tags";
       end $$;`,
    );
    for (const [event, { referencing, noteIds }] of Object.entries(TRIGGERS)) {
      this.addSql(
        `create function "note_highlight_tags_${event}"() returns trigger language plpgsql as $$
         begin
           perform "note_highlight_tags_refresh"(array(
             select distinct "note_id" from (${noteIds}) c("note_id") where "note_id" is not null));
           return null;
         end $$;`,
      );
      this.addSql(
        `create trigger "note_highlight_tags_${event}" after ${event} on "highlight" referencing ${referencing}
         for each statement execute function "note_highlight_tags_${event}"();`,
      );
    }
    // The triggers lock the highlight table until this commits, so the backfill misses no write.
    this.addSql(
      `update "note" n set "highlight_tags" = ${HIGHLIGHT_TAGS_OF('n')}
       where exists (select 1 from "highlight" h where h."note_id" = n."id" and h."tags" <> '{}');`,
    );
  }

  override down(): void | Promise<void> {
    for (const event of Object.keys(TRIGGERS)) {
      this.addSql(`drop trigger if exists "note_highlight_tags_${event}" on "highlight";`);
      this.addSql(`drop function if exists "note_highlight_tags_${event}"();`);
    }
    this.addSql(`drop function if exists "note_highlight_tags_refresh"(text[]);`);
    this.addSql(`drop index if exists "note_highlight_tags_index";`);
    this.addSql(`alter table "note" drop column if exists "highlight_tags";`);
  }
}
