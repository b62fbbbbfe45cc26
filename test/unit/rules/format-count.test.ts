import { describe, expect, test } from 'vitest';
import { formatCount } from '../../../src/rules/format-count.ts';

describe('numbers of 10000 or more display in thousands with k', () => {
  test('12345 → 12.3k', () => expect(formatCount(12345, 'en')).toBe('12.3k'));
  test('exactly 10000 → 10k', () => expect(formatCount(10000, 'en')).toBe('10k'));
  test('never overstated: 19999 → 19.9k', () => expect(formatCount(19999, 'en')).toBe('19.9k'));
  test('large values', () => expect(formatCount(1_234_567, 'en')).toBe('1,234.5k'));
  test('the k number uses the locale decimal sign', () => expect(formatCount(12345, 'de')).toBe('12,3k'));
});

describe('numbers below 10000 use the locale format', () => {
  test('9999 in en', () => expect(formatCount(9999, 'en')).toBe('9,999'));
  test('1234 in de', () => expect(formatCount(1234, 'de')).toBe('1.234'));
  test('small numbers unchanged', () => {
    expect(formatCount(0, 'en')).toBe('0');
    expect(formatCount(42, 'zh-CN')).toBe('42');
  });
  test('an invalid locale falls back instead of throwing', () =>
    expect(formatCount(1234, 'not a locale!')).toBe('1,234'));
  test('non-finite input shows 0', () => expect(formatCount(Number.NaN, 'en')).toBe('0'));
});
