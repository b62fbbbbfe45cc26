import type { EntityManager } from '@mikro-orm/postgresql';
import type { ExportRecord, IntegrationSettings } from '../../../src/schemas/sync.ts';
import type { User } from '../../db/entities/index.ts';
import { exportRecords } from './export-records.ts';
import { exportedNotesCondition } from './note-filter.ts';
import {
  BEFORE_FIRST_SEQ,
  type CursorOwner,
  decodeSyncCursor,
  encodeSyncCursor,
  logPositionOf,
  type SyncPosition,
  syncCursorInvalid,
} from './sync-cursor.ts';

/** Notes per page of a first export; change-log rows per page after it. */
export const EXPORT_PAGE_NOTES = 100;
export const EXPORT_PAGE_CHANGES = 500;

export interface ExportBatch {
  records: ExportRecord[];
  /** Notes the client should remove: deleted, trashed, or no longer matching the filter. */
  deleted: string[];
  cursor: string;
  hasMore: boolean;
}

export interface ExportScope extends CursorOwner {
  settings: IntegrationSettings;
  baseUrl: string;
}

/** The tables whose rows carry a change's transaction and sequence, and the note each change names. */
const CHANGE_LOGS = [
  { table: 'note', noteColumn: 'id' },
  { table: 'highlight', noteColumn: 'note_id' },
  { table: 'export_tombstone', noteColumn: 'note_id' },
] as const;

/** The oldest transaction still running when this statement's snapshot was taken. */
const SNAPSHOT_XMIN = 'pg_snapshot_xmin(pg_current_snapshot())';

/**
 * One page of an integration's export after `cursor` (null: from the beginning).
 *
 * From the beginning, the notes the integration exports are walked in id order. After that, the
 * change log: each note, highlight and tombstone carries the transaction id that last changed it
 * and a sequence number (migrations/Migration20261126100000_sync.ts). Only rows of transactions
 * older than the snapshot's xmin are read; those have all ended, so no row can still appear
 * behind the cursor, in (xid, seq) order, as a row of a transaction that took an earlier number
 * but committed later would under a plain sequence. A long transaction only delays what comes
 * after it. A change names a note; the note's present state is what is sent (or its removal).
 */
export async function exportBatch(
  em: EntityManager,
  user: User,
  scope: ExportScope,
  cursor: string | null,
): Promise<ExportBatch> {
  const xmin = await snapshotXmin(em);
  const position: SyncPosition = (cursor && checkedPosition(cursor, scope, xmin)) || {
    mode: 'full',
    afterId: '',
    watermark: xmin,
  };
  return position.mode === 'full'
    ? fullPage(em, user, scope, position)
    : changesPage(em, user, scope, position);
}

async function snapshotXmin(em: EntityManager): Promise<string> {
  const [row] = await em.execute<{ xmin: string }[]>(`select ${SNAPSHOT_XMIN}::text as xmin`);
  return row?.xmin ?? '0';
}

/**
 * The position `cursor` names (null when stale), refused when it is ahead of the snapshot's
 * xmin: every cursor we hand out stands at or behind the xmin of its snapshot, and the xmin of
 * later snapshots only grows, so such a cursor was never ours (read as ours, it would skip the
 * log up to a transaction that may never come, and be handed back unchanged).
 */
function checkedPosition(cursor: string, owner: CursorOwner, xmin: string): SyncPosition | null {
  const position = decodeSyncCursor(cursor, owner);
  if (position && logPositionOf(position) > BigInt(xmin)) throw syncCursorInvalid();
  return position;
}

/** `checkedPosition` under a snapshot of its own: whether a client's cursor may be kept or sent back. */
export async function syncPositionOf(
  em: EntityManager,
  owner: CursorOwner,
  cursor: string,
): Promise<SyncPosition | null> {
  return checkedPosition(cursor, owner, await snapshotXmin(em));
}

/** The next page of a first export: the ids of the notes the integration exports after `afterId`. */
async function exportedNoteIdsAfter(
  em: EntityManager,
  user: User,
  settings: IntegrationSettings,
  afterId: string,
): Promise<{ ids: string[]; more: boolean }> {
  const exported = exportedNotesCondition(user, settings);
  const rows = await em.execute<{ id: string }[]>(
    `select n.id from note n where n.user_id = ? and n.id > ? and ${exported.sql} order by n.id limit ?`,
    [user.id, afterId, ...exported.params, EXPORT_PAGE_NOTES + 1],
  );
  return { ids: rows.slice(0, EXPORT_PAGE_NOTES).map((r) => r.id), more: rows.length > EXPORT_PAGE_NOTES };
}

async function fullPage(
  em: EntityManager,
  user: User,
  scope: ExportScope,
  position: Extract<SyncPosition, { mode: 'full' }>,
): Promise<ExportBatch> {
  const { ids, more } = await exportedNoteIdsAfter(em, user, scope.settings, position.afterId);
  const records = await exportRecords(em, user, scope.settings, ids, scope.baseUrl);
  const last = ids.at(-1);
  const next: SyncPosition =
    more && last
      ? { ...position, afterId: last }
      : // Everything that committed before the walk began was in it; the log takes over from there.
        { mode: 'changes', xid: position.watermark, seq: BEFORE_FIRST_SEQ };
  return { records, deleted: [], cursor: encodeSyncCursor(scope, next), hasMore: true };
}

/** Every record the settings export, a page at a time (the Markdown export: no cursor, no log). */
export async function* everyRecord(
  em: EntityManager,
  user: User,
  settings: IntegrationSettings,
  baseUrl: string,
): AsyncGenerator<ExportRecord[]> {
  let afterId = '';
  for (;;) {
    const { ids, more } = await exportedNoteIdsAfter(em, user, settings, afterId);
    yield await exportRecords(em, user, settings, ids, baseUrl);
    const last = ids.at(-1);
    if (!more || !last) return;
    afterId = last;
  }
}

async function changesPage(
  em: EntityManager,
  user: User,
  scope: ExportScope,
  position: Extract<SyncPosition, { mode: 'changes' }>,
): Promise<ExportBatch> {
  const after = `(change_xid, change_seq) > (?::xid8, ?::bigint) and change_xid < ${SNAPSHOT_XMIN}`;
  const limit = EXPORT_PAGE_CHANGES;
  const logOf = ({ table, noteColumn }: (typeof CHANGE_LOGS)[number]) =>
    `(select ${noteColumn} as note_id, change_xid, change_seq from "${table}"
      where user_id = ? and ${after} order by change_xid, change_seq limit ${limit})`;
  const params = [user.id, position.xid, position.seq];
  // The snapshot's xmin comes with the rows (one statement, one snapshot), for when there are none.
  const rows = await em.execute<
    { xmin: string; note_id: string | null; xid: string | null; seq: string | null }[]
  >(
    `select s.xmin, c.note_id, c.xid, c.seq
     from (select ${SNAPSHOT_XMIN}::text as xmin) s
     left join lateral (
       select note_id, change_xid::text as xid, change_seq::text as seq, change_xid, change_seq from (
         ${CHANGE_LOGS.map(logOf).join(' union all ')}
       ) u order by change_xid, change_seq limit ${limit}
     ) c on true
     order by c.change_xid, c.change_seq`,
    CHANGE_LOGS.flatMap(() => params),
  );
  const changes = rows.filter((r): r is typeof r & { xid: string; seq: string } => r.xid !== null);
  const last = changes.at(-1);
  const xmin = rows[0]?.xmin ?? position.xid;
  const next: SyncPosition = last
    ? { mode: 'changes', xid: last.xid, seq: last.seq }
    : // Nothing older than the snapshot's xmin is left past the cursor, and every later change
      // will carry an xid of at least xmin: the cursor moves up to it (so a client sees the end
      // of a sync as a new cursor, and the next read starts later in the log).
      BigInt(xmin) > BigInt(position.xid)
      ? { mode: 'changes', xid: xmin, seq: BEFORE_FIRST_SEQ }
      : position;
  const noteIds = [...new Set(changes.flatMap((c) => (c.note_id ? [c.note_id] : [])))];
  const records = await exportRecords(em, user, scope.settings, noteIds, scope.baseUrl);
  const kept = new Set(records.map((r) => r.id));
  return {
    records,
    deleted: noteIds.filter((id) => !kept.has(id)),
    cursor: encodeSyncCursor(scope, next),
    hasMore: changes.length === limit,
  };
}

/**
 * Whether the user has changes after `cursor`, which the run that handed it out did not send: one
 * committed while an older transaction anywhere in the cluster was still running waits behind it,
 * and one that became readable after the run's last page was read is simply next. A pull plugin
 * asks again later; a push comes back for them, or they would wait for the user's next edit.
 */
export async function changesWaiting(
  em: EntityManager,
  userId: number,
  owner: CursorOwner,
  cursor: string,
): Promise<boolean> {
  const position = decodeSyncCursor(cursor, owner);
  if (position?.mode !== 'changes') return true;
  const after = ({ table }: (typeof CHANGE_LOGS)[number]) =>
    `select 1 from "${table}" where user_id = ? and (change_xid, change_seq) > (?::xid8, ?::bigint)`;
  const params = [userId, position.xid, position.seq];
  const [row] = await em.execute<{ waiting: boolean }[]>(
    `select exists (${CHANGE_LOGS.map(after).join(' union all ')}) as waiting`,
    CHANGE_LOGS.flatMap(() => params),
  );
  return row?.waiting === true;
}
