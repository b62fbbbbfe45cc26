import { describe, expect, test } from 'vitest';
import { normalizeNoteUrl, splitTypedUrls, typedNoteUrl } from '../../../src/rules/note-url.ts';

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

describe('web addresses as the user types or pastes them', () => {
  test('a word is an address with http(s), or a host with a dot (https assumed), else it stays text', () => {
    expect(typedNoteUrl('https://a.test/x')).toBe('https://a.test/x');
    expect(typedNoteUrl('HTTP://a.test')).toBe('HTTP://a.test');
    expect(typedNoteUrl('example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(typedNoteUrl('127.0.0.1:8080/p')).toBe('https://127.0.0.1:8080/p');
    expect(typedNoteUrl('localhost:3000')).toBe('https://localhost:3000');
    expect(typedNoteUrl('例子.中国/文章')).toBe('https://例子.中国/文章');
    for (const word of [
      'hello',
      'e.g.',
      'ftp://a.test/x',
      'javascript:alert(1)',
      'mailto:a@b.test',
      'https://',
      '.com',
    ])
      expect(typedNoteUrl(word), word).toBeNull();
  });

  test('a pasted list splits into its addresses, in order, and what is not one', () => {
    expect(splitTypedUrls(' https://a.test/1\nb.test/2\r\n\n  hello\thttps://c.test/3  not-a-link ')).toEqual(
      {
        urls: ['https://a.test/1', 'https://b.test/2', 'https://c.test/3'],
        rest: ['hello', 'not-a-link'],
      },
    );
    expect(splitTypedUrls('   ')).toEqual({ urls: [], rest: [] });
  });
});
