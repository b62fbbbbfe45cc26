import { deepLinkSearch } from '../../../src/deep-link.ts';

/** The reader scrolled to one highlight: `/?pi=<note>&vs=article&nx=<highlight>`. */
export function highlightPath(noteId: string, highlightId: string): string {
  const search = new URLSearchParams(deepLinkSearch({ kind: 'note', noteId, viewStyle: 'article' }));
  search.set('nx', highlightId);
  return `/?${search.toString()}`;
}
