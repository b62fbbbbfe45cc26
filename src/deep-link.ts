import { isEnumValue, ViewStyle } from './enums.ts';

/**
 * The spec's deep links: `?pi={page id}&vs={view style}` opens a page, `?nx={note index}&vs=…`
 * opens a note. The legacy hash form `/#/?pi=…` is accepted too.
 */
export type DeepLink =
  | { kind: 'page'; pageId: string; viewStyle: ViewStyle | null }
  | { kind: 'note'; noteIndex: string; viewStyle: ViewStyle | null };

const ID = /^[0-9A-Za-z-]{1,64}$/;

export function parseDeepLink(search: string): DeepLink | null {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const vs = params.get('vs');
  const viewStyle = isEnumValue(ViewStyle, vs) ? vs : null;
  const pageId = params.get('pi');
  if (pageId && ID.test(pageId)) return { kind: 'page', pageId, viewStyle };
  const noteIndex = params.get('nx');
  if (noteIndex && ID.test(noteIndex)) return { kind: 'note', noteIndex, viewStyle };
  return null;
}

/** `/#/?pi=1` → `/?pi=1`: the hash-routed link form rewritten to a path, or null if not one. */
export function legacyHashPath(hash: string): string | null {
  return hash.startsWith('#/') ? hash.slice(1) : null;
}

export function deepLinkSearch(link: DeepLink): string {
  const params = new URLSearchParams(link.kind === 'page' ? { pi: link.pageId } : { nx: link.noteIndex });
  if (link.viewStyle) params.set('vs', link.viewStyle);
  return `?${params.toString()}`;
}
