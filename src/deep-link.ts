import { isEnumValue, ViewStyle } from './enums.ts';

/**
 * The spec's deep links: `?pi={note id}&vs={view style}` opens a note, `?nx={highlight id}&vs=…`
 * opens the note scrolled to a highlight. The legacy hash form `/#/?pi=…` is accepted too.
 */
export type DeepLink =
  | { kind: 'note'; noteId: string; viewStyle: ViewStyle | null }
  | { kind: 'highlight'; highlightId: string; viewStyle: ViewStyle | null };

const ID = /^[0-9A-Za-z-]{1,64}$/;

/** Whether an id taken from an address can name a note or a highlight (the spec's alphabet). */
export function isLinkId(value: string | null | undefined): value is string {
  return value != null && ID.test(value);
}

export function parseDeepLink(search: string): DeepLink | null {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const vs = params.get('vs');
  const viewStyle = isEnumValue(ViewStyle, vs) ? vs : null;
  const noteId = params.get('pi');
  if (isLinkId(noteId)) return { kind: 'note', noteId, viewStyle };
  const highlightId = params.get('nx');
  if (isLinkId(highlightId)) return { kind: 'highlight', highlightId, viewStyle };
  return null;
}

/** `/#/?pi=1` → `/?pi=1`: the hash-routed link form rewritten to a path, or null if not one. */
export function legacyHashPath(hash: string): string | null {
  return hash.startsWith('#/') ? hash.slice(1) : null;
}

export function deepLinkSearch(link: DeepLink): string {
  const params = new URLSearchParams(link.kind === 'note' ? { pi: link.noteId } : { nx: link.highlightId });
  if (link.viewStyle) params.set('vs', link.viewStyle);
  return `?${params.toString()}`;
}

/**
 * Markdown whose Margin links are relative (`](/?pi=…)`, as a daily note stores them), with
 * those links made absolute on `baseUrl`: for text that leaves Margin.
 */
export function absoluteMarginLinks(markdown: string, baseUrl: string): string {
  return baseUrl ? markdown.replaceAll('](/?', `](${baseUrl.replace(/\/+$/, '')}/?`) : markdown;
}
