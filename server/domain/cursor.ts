import { AppError } from '../../src/errors.ts';
import { isValidId } from '../../src/rules/id.ts';

/**
 * Keyset pagination over (created_at desc, id desc): the cursor is the last row's pair, so a
 * deep page costs the same as the first.
 */
export interface Keyset {
  createdAt: Date;
  id: string;
}

/** A row a page ends with: its creation time (a Date, or epoch ms as client rows carry it) and id. */
interface PageEnd {
  createdAt: Date | number;
  id: string;
}

function encodeCursor(row: PageEnd): string {
  return Buffer.from(`${new Date(row.createdAt).toISOString()}|${row.id}`).toString('base64url');
}

/** What every malformed cursor gets: a 400 the client can show, never a query that fails. */
export function invalidCursor(): AppError {
  return new AppError('BAD_REQUEST', 'errors.invalidCursor');
}

/**
 * A cursor's text: canonical base64url of well-formed UTF-8 (anything else was not made by
 * us). Bounded by the input schemas' cursor lengths before it gets here.
 */
export function cursorText(cursor: string): string {
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.toString('base64url') !== cursor) throw invalidCursor();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidCursor();
  }
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CURSOR_YEAR_MIN = 1970;
const CURSOR_YEAR_MAX = 9999;

/** An instant exactly as `toISOString` wrote it, in a year PostgreSQL and we agree on. */
export function cursorInstant(value: unknown): Date {
  if (typeof value !== 'string' || !ISO_INSTANT.test(value)) throw invalidCursor();
  const date = new Date(value);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || date.toISOString() !== value) throw invalidCursor();
  if (year < CURSOR_YEAR_MIN || year > CURSOR_YEAR_MAX) throw invalidCursor();
  return date;
}

/** A row id as ids are made (newId's alphabet and lengths). */
export function cursorId(value: unknown): string {
  if (!isValidId(value)) throw invalidCursor();
  return value;
}

export function decodeCursor(cursor: string | null | undefined): Keyset | null {
  if (!cursor) return null;
  const parts = cursorText(cursor).split('|');
  if (parts.length !== 2) throw invalidCursor();
  return { createdAt: cursorInstant(parts[0]), id: cursorId(parts[1]) };
}

/** Splits the `limit + 1` rows a query fetched into a page and the next cursor. */
export function pageOf<T extends PageEnd>(
  rows: T[],
  limit: number,
): { items: T[]; nextCursor: string | null } {
  const items = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** A cursor's JSON (what a keyset of several columns is written as), or a 400. */
export function cursorJson(cursor: string): unknown {
  const text = cursorText(cursor);
  try {
    return JSON.parse(text);
  } catch {
    throw invalidCursor();
  }
}
