import { bumpStoredCount, readStoredCount } from '../../lib/stored-daily-counter.ts';

/** How many quick entries this browser posted today (spec: a per-day counter, reset at midnight). */
function storageKey(accountId: string): string {
  return `margin.postCounter.${accountId}`;
}

export function readPostCount(accountId: string, now = new Date()): number {
  return readStoredCount(storageKey(accountId), now);
}

/** Counts one more entry for today and answers the new count. */
export function bumpPostCount(accountId: string, now = new Date()): number {
  return bumpStoredCount(storageKey(accountId), now);
}
