// Removes from the extracted body what Readability keeps but readers do not read as the article:
// blocks marked up as sharing/related/newsletter furniture and link lists (related stories).

const BOILERPLATE =
  /(^|[-_\s])(related|share|sharing|social|newsletter|subscribe|signup|promo|advert|ads?|sponsor|sponsored|author-bio|bio|tags?|comments?|recommended|read-more|more-from|most-popular|trending|breadcrumbs?|byline|dateline|timestamp)([-_\s]|$)/i;
// A marked block holding this much of the body is the body itself, whatever its class says.
const MAX_BOILERPLATE_SHARE = 0.3;
// Share of a block's text inside links above which it is a list of links, not prose.
const LINK_DENSITY = 0.6;
const LINK_BLOCK_SELECTOR = 'ul, ol, p, div, section, li, table';

function textLength(node: Node): number {
  return (node.textContent ?? '').replace(/\s+/g, '').length;
}

function linkTextLength(element: Element): number {
  let length = 0;
  for (const link of element.querySelectorAll('a')) length += textLength(link);
  return length;
}

function removeBoilerplateBlocks(root: Element, totalLength: number): void {
  for (const element of [...root.querySelectorAll('[class], [id]')]) {
    if (!root.contains(element)) continue;
    const marker = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
    if (!BOILERPLATE.test(marker)) continue;
    if (textLength(element) <= totalLength * MAX_BOILERPLATE_SHARE) element.remove();
  }
}

function removeLinkLists(root: Element): void {
  for (const element of [...root.querySelectorAll(LINK_BLOCK_SELECTOR)].reverse()) {
    const length = textLength(element);
    if (length === 0) continue;
    if (linkTextLength(element) / length > LINK_DENSITY) element.remove();
  }
}

export function postClean(root: Element): void {
  const totalLength = textLength(root);
  removeBoilerplateBlocks(root, totalLength);
  removeLinkLists(root);
}
