import { describe, expect, test } from 'vitest';
import { mergeText } from '../../../src/rules/merge-text.ts';

describe('merging concurrent daily-note edits', () => {
  test('edits in different places both survive', () => {
    const base = 'one\ntwo\nthree';
    expect(mergeText(base, 'one!\ntwo\nthree', 'one\ntwo\nthree\nfour')).toBe('one!\ntwo\nthree\nfour');
  });

  test('two tabs appending at the end keep both appends', () => {
    const base = 'morning';
    expect(mergeText(base, 'morning\nfrom tab A', 'morning\nfrom tab B')).toBe(
      'morning\nfrom tab A\nfrom tab B',
    );
  });

  test('the same line changed two ways keeps both versions', () => {
    expect(mergeText('a\nb\nc', 'a\nB1\nc', 'a\nB2\nc')).toBe('a\nB1\nB2\nc');
  });

  test('no concurrent change: the incoming text wins as is', () => {
    expect(mergeText('x', 'x', 'y')).toBe('y');
    expect(mergeText('x', 'y', 'x')).toBe('y');
  });
});
