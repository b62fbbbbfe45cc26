import { describe, expect, test } from 'vitest';
import { deepLinkSearch, legacyHashPath, parseDeepLink } from '../../src/deep-link.ts';

describe('deep links', () => {
  test('?pi={note id}&vs={view style} opens a note in a view style', () => {
    expect(parseDeepLink('?pi=abc-123&vs=card')).toEqual({
      kind: 'note',
      noteId: 'abc-123',
      viewStyle: 'card',
    });
  });

  test('?nx={highlight id}&vs={view style} opens the note at a highlight', () => {
    expect(parseDeepLink('nx=42&vs=list')).toEqual({
      kind: 'highlight',
      highlightId: '42',
      viewStyle: 'list',
    });
  });

  test('an unknown view style is dropped, the link still opens', () => {
    expect(parseDeepLink('?pi=7&vs=poster')).toEqual({ kind: 'note', noteId: '7', viewStyle: null });
  });

  test('ids outside the digits-hyphen-letters alphabet are not links', () => {
    expect(parseDeepLink('?pi=<script>')).toBeNull();
    expect(parseDeepLink('?q=1')).toBeNull();
  });

  test('the hash form /#/?pi=… becomes a path', () => {
    expect(legacyHashPath('#/?pi=9&vs=article')).toBe('/?pi=9&vs=article');
    expect(legacyHashPath('#section')).toBeNull();
  });

  test('links round-trip', () => {
    const link = { kind: 'highlight', highlightId: 'n-1', viewStyle: 'card' } as const;
    expect(parseDeepLink(deepLinkSearch(link))).toEqual(link);
  });
});
