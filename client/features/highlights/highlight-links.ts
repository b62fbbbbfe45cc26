import { deepLinkSearch } from '../../../src/deep-link.ts';

/** The reader scrolled to one highlight: `/?pi=<page>&vs=article&nx=<note>`. */
export function highlightPath(pageId: string, noteId: string): string {
  const search = new URLSearchParams(deepLinkSearch({ kind: 'page', pageId, viewStyle: 'article' }));
  search.set('nx', noteId);
  return `/?${search.toString()}`;
}
