import { describe, expect, test } from 'vitest';
import { pushRecentKeyword } from '../../../src/rules/recent-keywords.ts';

describe('recent search keywords: newest first, max 12, trimmed, no duplicates, empty ignored', () => {
  test('newest first', () => expect(pushRecentKeyword(['a', 'b'], 'c')).toEqual(['c', 'a', 'b']));
  test('max 12: the oldest drops off', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => `k${i}`);
    const next = pushRecentKeyword(twelve, 'new');
    expect(next).toHaveLength(12);
    expect(next[0]).toBe('new');
    expect(next).not.toContain('k11');
  });
  test('trimmed', () => expect(pushRecentKeyword([], '  rust  ')).toEqual(['rust']));
  test('a repeat moves to the front instead of duplicating', () =>
    expect(pushRecentKeyword(['a', 'b', 'c'], ' c ')).toEqual(['c', 'a', 'b']));
  test('empty and whitespace-only keywords are ignored', () => {
    expect(pushRecentKeyword(['a'], '')).toEqual(['a']);
    expect(pushRecentKeyword(['a'], ' \t ')).toEqual(['a']);
  });
  test('does not mutate the input list', () => {
    const list = ['a'];
    pushRecentKeyword(list, 'b');
    expect(list).toEqual(['a']);
  });
  test('CJK keywords are kept as typed', () => expect(pushRecentKeyword([], '用户')).toEqual(['用户']));
});
