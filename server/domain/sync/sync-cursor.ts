import { AppError } from '../../../src/errors.ts';
import { cursorText } from '../cursor.ts';

/**
 * Where an integration's export stands. A first export walks the matching notes in id order
 * (`full`), remembering the xmin of the snapshot it started under; then it follows the change
 * log (`changes`) from that xmin on, in (transaction, sequence) order, so nothing written while
 * the walk ran is missed (server/domain/sync/changes.ts says why that order is safe).
 */
export type SyncPosition =
  | { mode: 'full'; afterId: string; watermark: string }
  | { mode: 'changes'; xid: string; seq: string };

const DIGITS = /^\d{1,20}$/;
const SEQ = /^-1$|^\d{1,20}$/;
const ID = /^[0-9A-Za-z-]{0,64}$/;

export function syncCursorInvalid(): AppError {
  return new AppError('BAD_REQUEST', 'errors.syncCursorInvalid');
}

/**
 * Whose cursor it is: the integration, and how many times its export was started over
 * ("run once", changed settings, unbinding). A cursor of an earlier start is stale.
 */
export interface CursorOwner {
  integrationId: number;
  generation: number;
}

/** Opaque to clients: `<integration id>.<generation>.<base64url of the position>`. */
export function encodeSyncCursor(owner: CursorOwner, position: SyncPosition): string {
  const body =
    position.mode === 'full'
      ? `f|${position.afterId}|${position.watermark}`
      : `c|${position.xid}|${position.seq}`;
  return `${owner.integrationId}.${owner.generation}.${Buffer.from(body).toString('base64url')}`;
}

/**
 * The position a client's cursor names, or null when it is stale (made before the export was
 * last started over: that client starts over too, whichever of the user's devices it is).
 * Refuses a cursor made for another integration (another user's, or another tool's of the
 * same user) or not made by us.
 */
export function decodeSyncCursor(cursor: string, owner: CursorOwner): SyncPosition | null {
  const [integrationId, generation, encoded, ...extra] = cursor.split('.');
  if (
    extra.length ||
    integrationId !== String(owner.integrationId) ||
    !encoded ||
    !DIGITS.test(generation ?? '')
  ) {
    throw syncCursorInvalid();
  }
  let body: string;
  try {
    body = cursorText(encoded);
  } catch {
    throw syncCursorInvalid();
  }
  const [mode, a, b, ...rest] = body.split('|');
  if (rest.length || a === undefined || b === undefined) throw syncCursorInvalid();
  let position: SyncPosition;
  if (mode === 'f' && ID.test(a) && DIGITS.test(b)) position = { mode: 'full', afterId: a, watermark: b };
  else if (mode === 'c' && DIGITS.test(a) && SEQ.test(b)) position = { mode: 'changes', xid: a, seq: b };
  else throw syncCursorInvalid();
  return Number(generation) === owner.generation ? position : null;
}
