import { AppError } from '../../../src/errors.ts';
import { isValidId } from '../../../src/rules/id.ts';
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

/** A decimal without sign or leading zeros, as `String(bigint)` writes it. */
const CANONICAL_DECIMAL = /^(?:0|[1-9]\d{0,19})$/;
/** PostgreSQL's xid8 is an unsigned 64-bit number; `change_seq` and the generation are signed. */
const XID8_MAX = 2n ** 64n - 1n;
const BIGINT_MAX = 2n ** 63n - 1n;
const INTEGER_MAX = 2n ** 31n - 1n;
/** Before the first change of a transaction: where a full walk hands over to the log. */
export const BEFORE_FIRST_SEQ = '-1';

/** `text` if it is a number as we write them and at most `max`, else a refusal. */
function cursorNumber(text: string | undefined, max: bigint): string {
  if (text === undefined || !CANONICAL_DECIMAL.test(text) || BigInt(text) > max) throw syncCursorInvalid();
  return text;
}

export function syncCursorInvalid(): AppError {
  return new AppError('BAD_REQUEST', 'errors.syncCursorInvalid', undefined, { reason: 'cursorInvalid' });
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
  const [integrationId, generationText, encoded, ...extra] = cursor.split('.');
  if (extra.length || integrationId !== String(owner.integrationId) || !encoded) throw syncCursorInvalid();
  const generation = Number(cursorNumber(generationText, INTEGER_MAX));
  // No export of this integration has been started over that often yet.
  if (generation > owner.generation) throw syncCursorInvalid();
  let body: string;
  try {
    body = cursorText(encoded);
  } catch {
    throw syncCursorInvalid();
  }
  const [mode, a, b, ...rest] = body.split('|');
  if (rest.length) throw syncCursorInvalid();
  let position: SyncPosition;
  if (mode === 'f' && isValidId(a))
    position = { mode: 'full', afterId: a, watermark: cursorNumber(b, XID8_MAX) };
  else if (mode === 'c') {
    const seq = b === BEFORE_FIRST_SEQ ? b : cursorNumber(b, BIGINT_MAX);
    position = { mode: 'changes', xid: cursorNumber(a, XID8_MAX), seq };
  } else throw syncCursorInvalid();
  return generation === owner.generation ? position : null;
}

/** Where in the change log a position stands: no cursor we made is ahead of the snapshot it is read in. */
export function logPositionOf(position: SyncPosition): bigint {
  return BigInt(position.mode === 'full' ? position.watermark : position.xid);
}
