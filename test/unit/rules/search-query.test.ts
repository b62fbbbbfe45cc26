import { describe, expect, test } from 'vitest';
import { parseSearchQuery } from '../../../src/rules/search-query.ts';

describe('search: words starting with # become tags; the rest is the query text', () => {
  test('tags and text separated', () =>
    expect(parseSearchQuery('#rust async #web runtime')).toEqual({
      tags: ['rust', 'web'],
      text: 'async runtime',
    }));
  test('full-width ＃ works too', () =>
    expect(parseSearchQuery('＃读书 笔记')).toEqual({ tags: ['读书'], text: '笔记' }));
  test('tags are deduplicated', () => expect(parseSearchQuery('#a #a #b').tags).toEqual(['a', 'b']));
  test('a bare # is ignored', () =>
    expect(parseSearchQuery('hello # world ＃')).toEqual({ tags: [], text: 'hello world' }));
  test('# inside a word is text, not a tag', () =>
    expect(parseSearchQuery('C# tips')).toEqual({ tags: [], text: 'C# tips' }));
  test('terms with symbols stay text: only a leading # makes a tag', () =>
    expect(parseSearchQuery('C++ F# .NET node.js #c# @user')).toEqual({
      tags: ['c#'],
      text: 'C++ F# .NET node.js @user',
    }));
  test('whitespace in the text is collapsed, including ideographic space', () =>
    expect(parseSearchQuery('  foo \t bar\u3000baz ')).toEqual({ tags: [], text: 'foo bar baz' }));
  test('repeated marks are one tag mark', () => expect(parseSearchQuery('##x').tags).toEqual(['x']));
  test('a comma-joined tag word gives each tag', () =>
    expect(parseSearchQuery('#a,b').tags).toEqual(['a', 'b']));
  test('empty input', () => {
    expect(parseSearchQuery('')).toEqual({ tags: [], text: '' });
    expect(parseSearchQuery(null)).toEqual({ tags: [], text: '' });
  });
});
