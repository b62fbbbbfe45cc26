import { describe, expect, test } from 'vitest';
import { normalizeNoteUrl } from '../../../src/rules/note-url.ts';

describe('note URL normalisation (one note per URL per user)', () => {
  test('drops the fragment and tracking parameters, keeps the rest in order', () => {
    expect(normalizeNoteUrl('https://Example.com:443/a/b?id=7&utm_source=x&utm_medium=y&b=2#section')).toBe(
      'https://example.com/a/b?id=7&b=2',
    );
    expect(normalizeNoteUrl('https://example.com/post?fbclid=abc&gclid=def')).toBe(
      'https://example.com/post',
    );
    expect(normalizeNoteUrl('https://item.taobao.com/item.htm?id=1&spm=a.b.c')).toBe(
      'https://item.taobao.com/item.htm?id=1',
    );
  });

  test('the same article with different tracking is the same URL', () => {
    expect(normalizeNoteUrl('https://a.test/x?utm_campaign=1')).toBe(
      normalizeNoteUrl('https://a.test/x#top'),
    );
  });

  test('non-web and malformed URLs are refused', () => {
    expect(normalizeNoteUrl('javascript:alert(1)')).toBeNull();
    expect(normalizeNoteUrl('file:///etc/passwd')).toBeNull();
    expect(normalizeNoteUrl('not a url')).toBeNull();
    expect(normalizeNoteUrl(`https://a.test/${'x'.repeat(5000)}`)).toBeNull();
  });

  test('credentials are never kept', () => {
    expect(normalizeNoteUrl('https://user:pass@example.com/')).toBe('https://example.com/');
  });

  test('CJK paths survive as percent-encoding', () => {
    expect(normalizeNoteUrl('https://zh.wikipedia.org/wiki/用户')).toBe(
      'https://zh.wikipedia.org/wiki/%E7%94%A8%E6%88%B7',
    );
  });
});
