import { describe, expect, test } from 'vitest';
import {
  isProLevel,
  isSuperProLevel,
  membershipState,
  memberTier,
  remainingProDays,
} from '../../../src/rules/member-level.ts';

const now = new Date('2025-06-01T12:00:00Z');
const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000);

describe('member level: "above 0 or exactly 4 is pro; 1 is super pro; otherwise free"', () => {
  test('exactly 4 is pro', () => expect(memberTier(4)).toBe('pro'));
  test('other levels above 0 are pro', () => {
    for (const level of [2, 3, 5, 9, 0.5]) expect(memberTier(level)).toBe('pro');
  });
  test('1 is super pro, not plain pro', () => expect(memberTier(1)).toBe('superPro'));
  test('0, negative, NaN, null and undefined are free', () => {
    for (const level of [0, -1, -4, Number.NaN, null, undefined]) expect(memberTier(level)).toBe('free');
  });
  test('isProLevel is true for pro and super pro, isSuperProLevel only for 1', () => {
    expect([0, 1, 4, 2].map(isProLevel)).toEqual([false, true, true, true]);
    expect([0, 1, 4].map(isSuperProLevel)).toEqual([false, true, false]);
  });
});

describe('membership is free, pro, super pro or expired', () => {
  test('pro with a future expiry is pro', () => expect(membershipState(4, inDays(10), now)).toBe('pro'));
  test('super pro with a future expiry is super pro', () =>
    expect(membershipState(1, inDays(1), now)).toBe('superPro'));
  test('pro whose expiry has passed is expired, also at the exact instant', () => {
    expect(membershipState(4, inDays(-1), now)).toBe('expired');
    expect(membershipState(4, now, now)).toBe('expired');
  });
  test('a free user never pro is free', () => expect(membershipState(0, null, now)).toBe('free'));
  test('a downgraded user with a past expiry is expired', () =>
    expect(membershipState(0, inDays(-3), now)).toBe('expired'));
  test('a paid level without expiry stays paid', () => expect(membershipState(4, null, now)).toBe('pro'));
});

describe('remaining PRO days ("%s days left")', () => {
  test('whole days', () => expect(remainingProDays(inDays(30), now)).toBe(30));
  test('a part day counts as a day left', () => expect(remainingProDays(inDays(0.1), now)).toBe(1));
  test('expired or unknown is 0, never negative', () => {
    expect(remainingProDays(inDays(-5), now)).toBe(0);
    expect(remainingProDays(now, now)).toBe(0);
    expect(remainingProDays(null, now)).toBe(0);
  });
});
