import type { EntityManager } from '@mikro-orm/postgresql';
import { NoteKind } from '../../../src/enums.ts';
import type { User } from '../../db/entities/index.ts';
import { pgTextArray } from '../../db/pg-array.ts';

// A note carries a tag when it has the tag itself or one of its highlights has it: the list
// filtered by a tag shows exactly these notes, and the Tag section counts them.

/**
 * The list's condition for notes carrying `tag`: their ids gathered first by the tag indexes of
 * notes and of highlights (a few rows, however many notes there are), as the 24 Hours view does.
 */
export function carriesTagSql(userId: number, tag: string, params: unknown[]): string {
  const tags = pgTextArray([tag]);
  params.push(userId, tags, userId, tags);
  return `n.id in (
    select id from note where user_id = ? and tags @> ?::text[]
    union all
    select note_id from highlight where user_id = ? and tags @> ?::text[] and note_id is not null)`;
}

/**
 * Every tag of the user with the notes the list shows for it (web notes outside the trash that
 * carry it) and the highlights that have it. Counted when asked, in one statement over one
 * snapshot, so concurrent tagging, deleting and trashing never leave a count behind. A tag only
 * on a trashed note's highlights stays listed (with 0 notes) so it can still be renamed.
 */
export async function tagCounts(em: EntityManager, user: User) {
  const rows = await em.execute<{ tag: string; notes: number; highlights: number }[]>(
    `select tag, count(distinct note_id)::int as notes, count(highlight_id)::int as highlights from (
       select unnest(n.tags) as tag, n.id as note_id, null::text as highlight_id
       from note n
       where n.user_id = ? and n.kind = ${NoteKind.web} and n.trashed_at is null and n.tags <> '{}'
       union all
       select unnest(h.tags), n.id, h.id
       from highlight h
       left join note n on n.id = h.note_id and n.user_id = h.user_id
         and n.kind = ${NoteKind.web} and n.trashed_at is null
       where h.user_id = ? and h.tags <> '{}'
     ) t group by tag order by tag`,
    [user.id, user.id],
  );
  return rows.map((r) => ({ tag: r.tag, notes: Number(r.notes), highlights: Number(r.highlights) }));
}
