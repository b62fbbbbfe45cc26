import { bumpDailyCounter, type DailyCounter, readDailyCounter } from '../../src/rules/daily-counter.ts';

// The spec's per-day counter kept in this browser's storage: the count starts again each day in
// the browser's time zone.

function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function load(key: string): DailyCounter | null {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? 'null') as DailyCounter | null;
    return value && typeof value.day === 'string' && Number.isInteger(value.count) ? value : null;
  } catch {
    return null;
  }
}

/** Today's count under `key`. */
export function readStoredCount(key: string, now = new Date()): number {
  return readDailyCounter(load(key), now, browserTimeZone());
}

/** Counts one more for today under `key` and answers the new count. */
export function bumpStoredCount(key: string, now = new Date()): number {
  const next = bumpDailyCounter(load(key), now, browserTimeZone());
  try {
    localStorage.setItem(key, JSON.stringify(next));
  } catch {
    // Without storage the count still holds for this page load.
  }
  return next.count;
}
