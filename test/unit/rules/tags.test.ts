import { describe, expect, test } from 'vitest';
import { joinTags, pushRecentTag, splitTags } from '../../../src/rules/tags.ts';

describe('tags are stored as comma-joined strings', () => {
  test('split trims, drops empties and duplicates', () =>
    expect(splitTags(' a, b,,a , c ,')).toEqual(['a', 'b', 'c']));
  test('empty, null and undefined give no tags', () => {
    expect(splitTags('')).toEqual([]);
    expect(splitTags(null)).toEqual([]);
    expect(splitTags(undefined)).toEqual([]);
  });
  test('join gives the comma-joined form, trimmed and deduplicated', () =>
    expect(joinTags([' a', 'b ', '', 'a'])).toEqual('a,b'));
  test('join then split round-trips', () =>
    expect(splitTags(joinTags(['读书', 'x y']))).toEqual(['读书', 'x y']));
  test('a comma inside a tag separates tags', () => expect(joinTags(['a,b'])).toBe('a,b'));
});

describe('recent tags: comma-joined, max 4, most recent first, moved to front if repeated', () => {
  test('most recent first', () => expect(pushRecentTag('a,b', 'c')).toBe('c,a,b'));
  test('max 4', () => expect(pushRecentTag('a,b,c,d', 'e')).toBe('e,a,b,c'));
  test('a repeated tag moves to the front', () => expect(pushRecentTag('a,b,c,d', 'c')).toBe('c,a,b,d'));
  test('starting from nothing', () => {
    expect(pushRecentTag(null, 'x')).toBe('x');
    expect(pushRecentTag('', ' x ')).toBe('x');
  });
  test('an empty tag changes nothing but cleans the list', () =>
    expect(pushRecentTag('a, b', '  ')).toBe('a,b'));
});
