// The navigation's counts by their definition, counted from the notes and highlights themselves
// (what the counters of migrations/Migration20261125100000_note_counts.ts and
// Migration20261203100000_tag_counts.ts must always equal): for the tests, which compare them
// after every kind of change, and for bench:counts, which times both. `?` placeholders, as
// MikroORM's `execute` takes them (bench-db.ts toPg turns them into pg's).
import { DAY_MS } from '../../src/constants.ts';
import { Flow, NoteKind } from '../../src/enums.ts';

export interface CountsQuery {
  sql: string;
  params: unknown[];
}

/** Every left-nav count (notes.counts) in one pass over the user's web notes. */
export function navCountsByDefinition(userId: number | string, now: Date): CountsQuery {
  const since = new Date(now.getTime() - DAY_MS);
  return {
    sql: `select
   count(*) filter (where trashed_at is null)::int as "all",
   count(*) filter (where trashed_at is null and flow = ${Flow.later})::int as later,
   count(*) filter (where trashed_at is null and flow = ${Flow.shortlist})::int as star,
   count(*) filter (where trashed_at is null and flow = ${Flow.archive})::int as archive,
   count(*) filter (where trashed_at is null and flow <> ${Flow.archive})::int as unarchive,
   count(*) filter (where trashed_at is not null)::int as trash,
   count(*) filter (where trashed_at is null and (created_at > ? or exists (
     select 1 from highlight h where h.note_id = n.id and h.created_at > ?)))::int as "24h",
   count(*) filter (where trashed_at is null and tags = '{}')::int as notag
 from note n where user_id = ? and kind = ${NoteKind.web}`,
    params: [since, since, userId],
  };
}

/**
 * The Tag section (notes.tags) by tag: the web notes outside the trash that carry it themselves
 * or through a highlight, and the highlights that have it; a tag with neither is not listed.
 */
export function tagCountsByDefinition(userId: number | string): CountsQuery {
  return {
    sql: `select tag, sum(notes)::int as notes, sum(highlights)::int as highlights from (
       select t.tag, 1 as notes, 0 as highlights
       from note n cross join lateral (
         select x from unnest(n.tags) x
         union select x from highlight h cross join unnest(h.tags) x where h.note_id = n.id) t(tag)
       where n.user_id = ? and n.kind = ${NoteKind.web} and n.trashed_at is null
       union all
       select unnest(tags), 0, 1 from highlight where user_id = ?
     ) t group by tag order by tag`,
    params: [userId, userId],
  };
}
