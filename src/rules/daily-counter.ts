export interface DailyCounter {
  /** Calendar date 'YYYY-MM-DD' in the time zone the counter was bumped in. */
  day: string;
  count: number;
}

const DATE_PARTS = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;

function dateFormat(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-US', { ...DATE_PARTS, timeZone });
  } catch {
    // An unknown zone name (old browser, corrupted setting) must not break the counter.
    return new Intl.DateTimeFormat('en-US', { ...DATE_PARTS, timeZone: 'UTC' });
  }
}

/** The calendar date of `now` in `timeZone` as 'YYYY-MM-DD'. An unknown time zone counts as UTC. */
export function dayKey(now: Date, timeZone: string): string {
  const parts = dateFormat(timeZone).formatToParts(now);
  const part = (type: 'year' | 'month' | 'day') => parts.find((p) => p.type === type)?.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Today's count: the stored count when it is from today, otherwise 0. */
export function readDailyCounter(
  state: DailyCounter | null | undefined,
  now: Date,
  timeZone: string,
): number {
  return state && state.day === dayKey(now, timeZone) ? state.count : 0;
}

/** Adds one for today; the count starts again from 1 when the date has changed. */
export function bumpDailyCounter(
  state: DailyCounter | null | undefined,
  now: Date,
  timeZone: string,
): DailyCounter {
  const day = dayKey(now, timeZone);
  return { day, count: state?.day === day ? state.count + 1 : 1 };
}
