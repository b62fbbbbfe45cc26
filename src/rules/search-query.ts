import { splitTags } from './tags.ts';

export interface SearchQuery {
  tags: string[];
  text: string;
}

const TAG_MARK = /^[#＃]+/;

/**
 * Words starting with # (or full-width ＃) become tags, without the mark, deduplicated; a bare
 * # is ignored. The remaining words, whitespace collapsed, are the query text.
 */
export function parseSearchQuery(query: string | null | undefined): SearchQuery {
  const tags: string[] = [];
  const words: string[] = [];
  for (const word of (query ?? '').split(/\s+/)) {
    if (word === '') continue;
    if (TAG_MARK.test(word)) tags.push(...splitTags(word.replace(TAG_MARK, '')));
    else words.push(word);
  }
  return { tags: [...new Set(tags)], text: words.join(' ') };
}
