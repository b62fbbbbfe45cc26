import { RECENT_KEYWORDS_MAX } from '../constants.ts';

/** Search history: newest first, at most 12, trimmed, no duplicates; an empty keyword is ignored. */
export function pushRecentKeyword(list: readonly string[], keyword: string): string[] {
  const kw = keyword.trim();
  const rest = list.map((k) => k.trim()).filter((k) => k !== '');
  if (kw === '') return [...new Set(rest)].slice(0, RECENT_KEYWORDS_MAX);
  return [...new Set([kw, ...rest])].slice(0, RECENT_KEYWORDS_MAX);
}
