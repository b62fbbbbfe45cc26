import type { EntityManager } from '@mikro-orm/postgresql';
import { decodeSyncCursor } from '../sync-cursor.ts';

/**
 * Whether the user has committed changes after `cursor` that the export cannot send yet. The
 * export reads only changes of transactions older than every transaction still open in the
 * cluster (server/domain/sync/changes.ts); a change committed while an older transaction
 * elsewhere is still running waits behind it. A pull plugin asks again later; a push must come
 * back for it, or the change would wait for the user's next edit.
 */
export async function changesWaiting(
  em: EntityManager,
  userId: number,
  integrationId: number,
  cursor: string,
): Promise<boolean> {
  const position = decodeSyncCursor(cursor, integrationId);
  if (position.mode !== 'changes') return true;
  const waiting = (table: string) =>
    `select 1 from "${table}" where user_id = ? and (change_xid, change_seq) > (?::xid8, ?::bigint)
       and change_xid >= pg_snapshot_xmin(pg_current_snapshot())`;
  const params = [userId, position.xid, position.seq];
  const [row] = await em.execute<{ waiting: boolean }[]>(
    `select exists (${waiting('note')} union all ${waiting('highlight')} union all ${waiting('export_tombstone')}) as waiting`,
    [...params, ...params, ...params],
  );
  return row?.waiting === true;
}
