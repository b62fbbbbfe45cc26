import type { EntityManager } from '@mikro-orm/postgresql';
import { DAY_MS } from '../../../src/constants.ts';
import { NoteKind } from '../../../src/enums.ts';
import type { NavCounts } from '../../../src/schemas/notes.ts';
import { clock } from '../../clock.ts';
import type { User } from '../../db/entities/index.ts';

export interface NavCountsSql {
  sql: string;
  params: unknown[];
}

/**
 * The left-nav counts as one statement: the user's `note_count` row, which triggers on `note`
 * keep (migrations/Migration20261125100000_note_counts.ts defines each count), and the 24 Hours
 * count, which moves with time and so is counted: the notes saved or highlighted since a day
 * ago, gathered by the created_at indexes of notes and highlights (a few rows, however many
 * notes there are), then checked by key to be web notes outside the trash. Exposed apart from
 * running it so the benchmark can show its plan.
 */
export function navCountsSql(user: User, now = clock.now()): NavCountsSql {
  const since = new Date(now.getTime() - DAY_MS);
  return {
    sql: `select coalesce(c.live, 0) as live, coalesce(c.later, 0) as later,
       coalesce(c.shortlist, 0) as shortlist, coalesce(c.archive, 0) as archive,
       coalesce(c.untagged, 0) as untagged, coalesce(c.trashed, 0) as trashed,
       (select count(*)::int from note n
        where n.user_id = me.id and n.kind = ${NoteKind.web} and n.trashed_at is null and n.id in (
          select id from note where user_id = me.id and created_at > ?
          union all
          select note_id from highlight where user_id = me.id and created_at > ?)) as recent
     from (select ?::bigint as id) me left join note_count c on c.user_id = me.id`,
    params: [since, since, user.id],
  };
}

interface NavCountsRow {
  live: number;
  later: number;
  shortlist: number;
  archive: number;
  untagged: number;
  trashed: number;
  recent: number;
}

/** Every left-nav count, in a millisecond or two at any number of notes. */
export async function navCounts(em: EntityManager, user: User, now = clock.now()): Promise<NavCounts> {
  const { sql, params } = navCountsSql(user, now);
  const [row] = await em.execute<NavCountsRow[]>(sql, params);
  if (!row) throw new Error('the counts query returns one row');
  return {
    all: row.live,
    later: row.later,
    star: row.shortlist,
    archive: row.archive,
    unarchive: row.live - row.archive,
    trash: row.trashed,
    '24h': row.recent,
    notag: row.untagged,
  };
}
