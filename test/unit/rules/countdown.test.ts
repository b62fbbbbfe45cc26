import { expect, test } from 'vitest';
import { countdown } from '../../../src/rules/countdown.ts';

const M = 60_000;
const H = 60 * M;
const D = 24 * H;

test('countdown shows days, hours and minutes', () => {
  expect(countdown(2 * D + 3 * H + 4 * M)).toEqual({ days: 2, hours: 3, minutes: 4 });
});

test('seconds are cut, not rounded up', () =>
  expect(countdown(5 * M + 59_999)).toEqual({ days: 0, hours: 0, minutes: 5 }));

test('just under a day', () => expect(countdown(D - 1)).toEqual({ days: 0, hours: 23, minutes: 59 }));

test('never negative: past, zero and invalid durations are all zero', () => {
  const zero = { days: 0, hours: 0, minutes: 0 };
  expect(countdown(-5 * D)).toEqual(zero);
  expect(countdown(0)).toEqual(zero);
  expect(countdown(Number.NaN)).toEqual(zero);
});
