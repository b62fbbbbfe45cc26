import { RECENT_TAGS_MAX } from '../constants.ts';

/** Tags from their stored comma-joined form: trimmed, empties dropped, first occurrence kept. */
export function splitTags(joined: string | null | undefined): string[] {
  if (!joined) return [];
  const tags = joined
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  return [...new Set(tags)];
}

/** The stored comma-joined form. A comma inside a tag separates tags, as it would on reading. */
export function joinTags(tags: readonly string[]): string {
  return splitTags(tags.join(',')).join(',');
}

/** Recent tags (comma-joined): most recent first, at most 4, a repeated tag moves to the front. */
export function pushRecentTag(joined: string | null | undefined, tag: string): string {
  return splitTags([tag, joined ?? ''].join(','))
    .slice(0, RECENT_TAGS_MAX)
    .join(',');
}
