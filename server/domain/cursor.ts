import { AppError } from '../../src/errors.ts';

/**
 * Keyset pagination over (created_at desc, id desc): the cursor is the last row's pair, so a
 * deep page costs the same as the first.
 */
export interface Keyset {
  createdAt: Date;
  id: string;
}

export function encodeCursor(row: Keyset): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined): Keyset | null {
  if (!cursor) return null;
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  if (!id || Number.isNaN(createdAt.getTime())) throw new AppError('BAD_REQUEST', 'errors.invalidInput');
  return { createdAt, id };
}

/** The filter that continues after a cursor. */
export function afterCursor(cursor: Keyset | null) {
  return cursor
    ? {
        $or: [
          { createdAt: { $lt: cursor.createdAt } },
          { createdAt: cursor.createdAt, id: { $lt: cursor.id } },
        ],
      }
    : {};
}

/** Splits the `limit + 1` rows a query fetched into a page and the next cursor. */
export function pageOf<T extends Keyset>(
  rows: T[],
  limit: number,
): { items: T[]; nextCursor: string | null } {
  const items = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

export const NEWEST_FIRST = { createdAt: 'desc', id: 'desc' } as const;
