import { expect, test } from 'vitest';
import { textNoteHasLink } from '../../../src/rules/link.ts';

const sixteen = 'https://a.b/cdef'; // 16 characters

test('a type-6 highlight (text note) longer than 15 characters has a link', () => {
  expect(sixteen).toHaveLength(16);
  expect(textNoteHasLink(sixteen, 6)).toBe(true);
});

test('exactly 15 characters is not longer than 15', () =>
  expect(textNoteHasLink(sixteen.slice(0, 15), 6)).toBe(false));

test('other highlight types never have a link', () => {
  for (const type of [1, 2, 3, 9, null, undefined])
    expect(textNoteHasLink(`${sixteen}/more`, type)).toBe(false);
});

test('length counts characters, not UTF-16 units', () => {
  const emoji = '😀'.repeat(8); // 8 characters, 16 UTF-16 units
  expect(textNoteHasLink(emoji, 6)).toBe(false);
  expect(textNoteHasLink('😀'.repeat(16), 6)).toBe(true);
});

test('missing text has no link', () => expect(textNoteHasLink(null, 6)).toBe(false));
