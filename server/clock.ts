/** What the server and the workers take "now" from. */
export interface Clock {
  now(): Date;
}

const systemClock: Clock = { now: () => new Date() };
let current: Clock = systemClock;

/**
 * The time for every rule that depends on it (today's daily note in the user's zone, the
 * 24 Hours view, session and code expiry, the trash purge, stored timestamps). Tests set it,
 * so the suite gives the same answers at every hour and in every host time zone.
 */
export const clock: Clock = { now: () => current.now() };

/** From now on the clock reads `start`, and runs on from there as real time passes. */
export function setClock(start: Date | string): void {
  const offset = new Date(start).getTime() - Date.now();
  if (Number.isNaN(offset)) throw new Error(`not an instant: ${String(start)}`);
  current = { now: () => new Date(Date.now() + offset) };
}
