import type { EntityManager } from '@mikro-orm/postgresql';
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
 * carry it) and the highlights that have it, read from the counters that triggers keep
 * (migrations/Migration20261203100000_tag_counts.ts defines each count): one row a tag, however
 * many notes carry it. A tag only on a trashed note's highlights stays listed (with 0 notes) so
 * it can still be renamed; a tag nothing carries any more is not listed.
 */
export async function tagCounts(em: EntityManager, user: User) {
  return em.execute<{ tag: string; notes: number; highlights: number }[]>(
    `select tag, notes, highlights from note_tag_count
     where user_id = ? and (notes, highlights) <> (0, 0) order by tag`,
    [user.id],
  );
}
