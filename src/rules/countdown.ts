import { DAY_MS, HOUR_MS, MINUTE_MS } from '../constants.ts';

export interface Countdown {
  days: number;
  hours: number;
  minutes: number;
}

/** Days, hours and whole minutes in a duration; a negative or invalid duration is all zeros. */
export function countdown(ms: number): Countdown {
  const left = Number.isFinite(ms) && ms > 0 ? ms : 0;
  return {
    days: Math.floor(left / DAY_MS),
    hours: Math.floor((left % DAY_MS) / HOUR_MS),
    minutes: Math.floor((left % HOUR_MS) / MINUTE_MS),
  };
}
