import { bumpDailyCounter, type DailyCounter, readDailyCounter } from '../../../src/rules/daily-counter.ts';

/** How many quick entries this browser posted today (spec: a per-day counter, reset at midnight). */
function storageKey(accountId: string): string {
  return `margin.postCounter.${accountId}`;
}

function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function load(accountId: string): DailyCounter | null {
  try {
    const value = JSON.parse(localStorage.getItem(storageKey(accountId)) ?? 'null') as DailyCounter | null;
    return value && typeof value.day === 'string' && Number.isInteger(value.count) ? value : null;
  } catch {
    return null;
  }
}

export function readPostCount(accountId: string, now = new Date()): number {
  return readDailyCounter(load(accountId), now, browserTimeZone());
}

/** Counts one more entry for today and answers the new count. */
export function bumpPostCount(accountId: string, now = new Date()): number {
  const next = bumpDailyCounter(load(accountId), now, browserTimeZone());
  try {
    localStorage.setItem(storageKey(accountId), JSON.stringify(next));
  } catch {
    // Without storage the count still shows for this page load.
  }
  return next.count;
}
