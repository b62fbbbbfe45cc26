import { deepLinkSearch } from '../../../src/deep-link.ts';
import { ViewStyle } from '../../../src/enums.ts';

/** The reader's address for a note: the spec's deep link `/?pi=…&vs=…`. */
export function readerPath(noteId: string, viewStyle: ViewStyle = ViewStyle.article): string {
  return `/${deepLinkSearch({ kind: 'note', noteId, viewStyle })}`;
}

/** The reader scrolled to one highlight: `/?pi=<note>&vs=<view>&nx=<highlight>`. */
export function highlightPath(
  noteId: string,
  highlightId: string,
  viewStyle: ViewStyle = ViewStyle.article,
): string {
  const search = new URLSearchParams(deepLinkSearch({ kind: 'note', noteId, viewStyle }));
  search.set('nx', highlightId);
  return `/?${search.toString()}`;
}
