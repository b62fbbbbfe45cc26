import { describe, expect, test } from 'vitest';
import { bumpDailyCounter, dayKey, readDailyCounter } from '../../../src/rules/daily-counter.ts';

describe('a per-day counter resets when the date changes', () => {
  const morning = new Date('2025-03-10T01:00:00Z');
  const evening = new Date('2025-03-10T20:00:00Z');
  const nextDay = new Date('2025-03-11T01:00:00Z');

  test('starts at 1 and counts within a day', () => {
    const first = bumpDailyCounter(null, morning, 'UTC');
    expect(first).toEqual({ day: '2025-03-10', count: 1 });
    expect(bumpDailyCounter(first, evening, 'UTC')).toEqual({ day: '2025-03-10', count: 2 });
  });

  test('resets to 1 on a new date', () => {
    const state = { day: '2025-03-10', count: 7 };
    expect(bumpDailyCounter(state, nextDay, 'UTC')).toEqual({ day: '2025-03-11', count: 1 });
  });

  test('the date is taken in the given time zone', () => {
    // 20:00 UTC on the 10th is already the 11th in Shanghai (UTC+8).
    expect(dayKey(evening, 'Asia/Shanghai')).toBe('2025-03-11');
    const state = bumpDailyCounter(null, morning, 'Asia/Shanghai');
    expect(bumpDailyCounter(state, evening, 'Asia/Shanghai')).toEqual({ day: '2025-03-11', count: 1 });
    // 01:00 UTC on the 10th is still the 9th in New York.
    expect(dayKey(morning, 'America/New_York')).toBe('2025-03-09');
  });

  test("reading today's count", () => {
    const state = { day: '2025-03-10', count: 3 };
    expect(readDailyCounter(state, evening, 'UTC')).toBe(3);
    expect(readDailyCounter(state, nextDay, 'UTC')).toBe(0);
    expect(readDailyCounter(undefined, nextDay, 'UTC')).toBe(0);
  });

  test('an unknown time zone counts as UTC instead of throwing', () =>
    expect(dayKey(evening, 'Mars/Olympus')).toBe('2025-03-10'));
});
