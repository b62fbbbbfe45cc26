import type { EntityManager } from '@mikro-orm/postgresql';
import { NoteKind } from '../../../src/enums.ts';
import type { User } from '../../db/entities/index.ts';
import { pgTextArray } from '../../db/pg-array.ts';

// A note carries a tag when it has the tag itself or one of its highlights has it: the list
// filtered by a tag shows exactly these notes, and the Tag section counts them. A note's
// `highlight_tags`, which triggers on highlight keep (migrations/
// Migration20261201100000_note_highlight_tags.ts), holds the tags of its highlights.

/** The list's condition for notes carrying `tag`: either side answered by its GIN index. */
export function carriesTagSql(tag: string, params: unknown[]): string {
  const tags = pgTextArray([tag]);
  params.push(tags, tags);
  return '(n.tags @> ?::text[] or n.highlight_tags @> ?::text[])';
}

/**
 * Every tag of the user with the notes the list shows for it (web notes outside the trash that
 * carry it) and the highlights that have it. A tag only on a trashed note's highlights stays
 * listed (with 0 notes) so it can still be renamed.
 */
export async function tagCounts(em: EntityManager, user: User) {
  const rows = await em.execute<{ tag: string; notes: number; highlights: number }[]>(
    `select tag, sum(notes)::int as notes, sum(highlights)::int as highlights from (
       select t.tag, 1 as notes, 0 as highlights
       from note n cross join lateral (select distinct x as tag from unnest(n.tags || n.highlight_tags) x) t
       where n.user_id = ? and n.kind = ${NoteKind.web} and n.trashed_at is null
         and (n.tags <> '{}' or n.highlight_tags <> '{}')
       union all
       select unnest(tags), 0, 1 from highlight where user_id = ? and tags <> '{}'
     ) t group by tag order by tag`,
    [user.id, user.id],
  );
  return rows.map((r) => ({ tag: r.tag, notes: Number(r.notes), highlights: Number(r.highlights) }));
}
