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

/** Opaque to clients: `<integration id>.<base64url of the position>`. */
export function encodeSyncCursor(integrationId: number, position: SyncPosition): string {
  const body =
    position.mode === 'full'
      ? `f|${position.afterId}|${position.watermark}`
      : `c|${position.xid}|${position.seq}`;
  return `${integrationId}.${Buffer.from(body).toString('base64url')}`;
}

/**
 * The position a client's cursor names, refusing one made for another integration (another
 * user's, or another tool's of the same user) or not made by us.
 */
export function decodeSyncCursor(cursor: string, integrationId: number): SyncPosition {
  const dot = cursor.indexOf('.');
  if (dot < 1 || cursor.slice(0, dot) !== String(integrationId)) throw syncCursorInvalid();
  let body: string;
  try {
    body = cursorText(cursor.slice(dot + 1));
  } catch {
    throw syncCursorInvalid();
  }
  const [mode, a, b, ...rest] = body.split('|');
  if (rest.length || a === undefined || b === undefined) throw syncCursorInvalid();
  if (mode === 'f' && ID.test(a) && DIGITS.test(b)) return { mode: 'full', afterId: a, watermark: b };
  if (mode === 'c' && DIGITS.test(a) && SEQ.test(b)) return { mode: 'changes', xid: a, seq: b };
  throw syncCursorInvalid();
}
