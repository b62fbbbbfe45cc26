// Removes from the extracted body what Readability keeps but readers do not read as the article:
// the headline when it opens the body (the reader shows the title above it), blocks marked up as
// sharing/related/newsletter furniture and link lists (related stories).
import { BLOCK_TAGS } from '../../../../src/text/blocks.ts';
import { isJsWhitespace } from '../../../../src/text/whitespace.ts';
import { walkElements } from './walk-elements.ts';

const BOILERPLATE =
  /(^|[-_\s])(related|share|sharing|social|newsletter|subscribe|signup|promo|advert|ads?|sponsor|sponsored|author-bio|bio|tags?|comments?|recommended|read-more|more-from|most-popular|trending|breadcrumbs?|byline|dateline|timestamp)([-_\s]|$)/i;
// A marked block holding this much of the body is the body itself, whatever its class says.
const MAX_BOILERPLATE_SHARE = 0.3;
// Share of a block's text inside links above which it is a list of links, not prose.
const LINK_DENSITY = 0.6;
const LINK_BLOCK_TAGS = new Set(['UL', 'OL', 'P', 'DIV', 'SECTION', 'LI', 'TABLE']);
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** Characters of text, whitespace left out. */
type Lengths = { text: number; links: number };

function nonSpaceLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) if (!isJsWhitespace(text.charCodeAt(i))) length++;
  return length;
}

/**
 * The text and link-text lengths of `root` and every element under it, each element's counted
 * once from its children's (children before parents, so no subtree is read twice). `drop` may
 * remove an element once its lengths are known; it then no longer counts for its ancestors.
 */
function measure(
  root: Element,
  drop?: (element: Element, lengths: Lengths) => boolean,
): Map<Element, Lengths> {
  const elements: Element[] = [];
  walkElements(root, true, (element) => {
    elements.push(element);
    return true;
  });
  const all = new Map<Element, Lengths>();
  for (let i = elements.length - 1; i >= -1; i--) {
    const element = i >= 0 ? (elements[i] as Element) : root;
    const lengths = { text: 0, links: 0 };
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) lengths.text += nonSpaceLength(child.nodeValue ?? '');
      else if (child.nodeType === ELEMENT_NODE) {
        const inner = all.get(child as Element);
        if (inner) {
          lengths.text += inner.text;
          lengths.links += inner.links;
        }
      }
    }
    if (element.tagName === 'A') lengths.links = lengths.text;
    all.set(element, lengths);
    if (i >= 0 && drop?.(element, lengths)) element.remove();
  }
  return all;
}

function removeBoilerplateBlocks(root: Element): void {
  const lengths = measure(root);
  const maxLength = (lengths.get(root)?.text ?? 0) * MAX_BOILERPLATE_SHARE;
  for (const [element, { text }] of lengths) {
    if (element === root || text > maxLength || !element.hasAttributes()) continue;
    const marker = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
    if (BOILERPLATE.test(marker)) element.remove();
  }
}

function removeLinkLists(root: Element): void {
  measure(
    root,
    (element, { text, links }) =>
      LINK_BLOCK_TAGS.has(element.tagName) && text > 0 && links / text > LINK_DENSITY,
  );
}

// Between a headline and the site's name in a page title: "Headline - Site", "Site | Headline".
const TITLE_SEPARATOR = /\s+(?:[-|–—·•:]|::)\s+/;
const SHOW_TEXT = 4;

function comparable(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function removeHeadline(root: Element, title: string): void {
  const titles = new Set([title, ...title.split(TITLE_SEPARATOR)].map(comparable).filter(Boolean));
  const walker = root.ownerDocument.createTreeWalker(root, SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (!text.nodeValue?.trim()) continue;
    let block = text.parentElement;
    while (block && block !== root && !BLOCK_TAGS.has(block.tagName)) block = block.parentElement;
    if (block && block !== root && titles.has(comparable(block.textContent ?? ''))) block.remove();
    return;
  }
}

/** `title`: the page's title, from its metadata. */
export function postClean(root: Element, title: string | null): void {
  if (title) removeHeadline(root, title);
  removeBoilerplateBlocks(root);
  removeLinkLists(root);
}
