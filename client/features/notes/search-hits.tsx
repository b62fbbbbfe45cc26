import type { ReactNode } from 'react';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A matcher for the query's words. Each whitespace-separated run matches as a substring, so
 * CJK queries (no spaces between words) and Latin prefixes both light up where the server found them.
 */
export function searchMatcher(query: string): RegExp | null {
  const runs = [...new Set(query.split(/\s+/).filter(Boolean))].sort((a, b) => b.length - a.length);
  if (runs.length === 0) return null;
  return new RegExp(runs.map(escapeRegExp).join('|'), 'giu');
}

/** `text` with every match wrapped in <mark class="search-hit">. */
export function SearchHits({ text, matcher }: { text: string; matcher: RegExp | null }): ReactNode {
  if (!matcher || text === '') return text;
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(matcher)) {
    const start = match.index;
    if (start > last) out.push(text.slice(last, start));
    out.push(
      <mark key={start} className="search-hit">
        {match[0]}
      </mark>,
    );
    last = start + match[0].length;
  }
  if (out.length === 0) return text;
  if (last < text.length) out.push(text.slice(last));
  return out;
}
