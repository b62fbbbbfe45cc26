// Removes from the extracted body what Readability keeps but readers do not read as the article:
// the headline when it opens the body (the reader shows the title above it), blocks marked up as
// sharing/related/newsletter furniture and link lists (related stories).
import { BLOCK_TAGS } from '../../../../src/text/blocks.ts';
import { isJsWhitespace } from '../../../../src/text/whitespace.ts';
import { isClosingFurniture, isDateline, isFurnitureLabel, SEE_ALSO } from './furniture-text.ts';
import { walkElements } from './walk-elements.ts';

const BOILERPLATE =
  /(^|[-_\s])(related|share|sharing|social|newsletter|subscribe|signup|promo|advert|ads?|sponsor|sponsored|author-bio|bio|tags?|comments?|recommended|read-more|more-from|most-popular|trending|breadcrumbs?|byline|dateline|timestamp)([-_\s]|$)/i;
// A marked block holding this much of the body is the body itself, whatever its class says.
const MAX_BOILERPLATE_SHARE = 0.3;
// Share of a block's text inside links above which it is a list of links, not prose.
const LINK_DENSITY = 0.6;
const LINK_BLOCK_TAGS = new Set(['UL', 'OL', 'P', 'DIV', 'SECTION', 'LI', 'TABLE']);
// A lone link in a block of its own is the prose's (a product, a source, "more here"); it is a
// list only among siblings of the same kind.
const MIN_LIST_LINKS = 2;
// Inside a paragraph, a span of nothing but links (a hover card, an inline teaser) is furniture
// the page shows on demand; a few names linked in a sentence keep their commas and words.
const INLINE_CLUSTER_LINKS = 3;
const INLINE_CLUSTER_DENSITY = 0.95;
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** Characters of text and of link text, whitespace left out, and how many links. */
type Lengths = { text: number; links: number; linkCount: number };

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
    const lengths = { text: 0, links: 0, linkCount: 0 };
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) lengths.text += nonSpaceLength(child.nodeValue ?? '');
      else if (child.nodeType === ELEMENT_NODE) {
        const inner = all.get(child as Element);
        if (inner) {
          lengths.text += inner.text;
          lengths.links += inner.links;
          lengths.linkCount += inner.linkCount;
        }
      }
    }
    if (element.tagName === 'A') {
      lengths.links = lengths.text;
      lengths.linkCount = 1;
    }
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

const isLinkDense = ({ text, links }: Lengths): boolean => text > 0 && links / text > LINK_DENSITY;

function isInlineLinkCluster(element: Element, { text, links, linkCount }: Lengths): boolean {
  return (
    element.tagName === 'SPAN' &&
    linkCount >= INLINE_CLUSTER_LINKS &&
    links >= text * INLINE_CLUSTER_DENSITY &&
    element.parentElement?.closest('p') != null
  );
}

// A headline shouted in capitals, as sites set the teasers of their other stories (an
// abbreviation's plural, "AMAs", may be in lower case).
const MIN_SHOUTED_WORDS = 3;
const MAX_LOWER_CASE_SHARE = 0.1;

function isShouted(text: string): boolean {
  const upper = text.match(/\p{Lu}/gu)?.length ?? 0;
  const lower = text.match(/\p{Ll}/gu)?.length ?? 0;
  return (
    upper > 0 &&
    lower <= (upper + lower) * MAX_LOWER_CASE_SHARE &&
    text.split(' ').length >= MIN_SHOUTED_WORDS
  );
}

function isTeaserText(text: string): boolean {
  return SEE_ALSO.test(text) || isShouted(text);
}

/**
 * Blocks that are a single link and are not the prose's: one of a run of such siblings of one
 * tag (a list, item by item) or another article's teaser ("See also: …", a headline in capitals).
 */
function removeLoneLinkBlocks(root: Element, lengths: Map<Element, Lengths>): void {
  const isLoneLink = (element: Element | null): element is Element => {
    const measured = element && lengths.get(element);
    return !!measured && measured.linkCount === 1 && isLinkDense(measured);
  };
  const lone: Element[] = [];
  for (const [element] of lengths) {
    if (element === root || !LINK_BLOCK_TAGS.has(element.tagName) || !isLoneLink(element)) continue;
    const sameKind = (sibling: Element | null): boolean =>
      isLoneLink(sibling) && sibling.tagName === element.tagName;
    if (
      sameKind(element.previousElementSibling) ||
      sameKind(element.nextElementSibling) ||
      isTeaserText(blockText(element))
    )
      lone.push(element);
  }
  for (const element of lone) element.remove();
}

function removeLinkLists(root: Element): void {
  removeLoneLinkBlocks(root, measure(root));
  measure(
    root,
    (element, lengths) =>
      isInlineLinkCluster(element, lengths) ||
      (LINK_BLOCK_TAGS.has(element.tagName) && lengths.linkCount >= MIN_LIST_LINKS && isLinkDense(lengths)),
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

function blockText(element: Element): string {
  return (element.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The innermost blocks that hold the body's text, in document order. */
function textBlocks(root: Element): Element[] {
  const blocks: Element[] = [];
  const walker = root.ownerDocument.createTreeWalker(root, SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (!text.nodeValue?.trim()) continue;
    let block = text.parentElement;
    while (block && block !== root && !BLOCK_TAGS.has(block.tagName)) block = block.parentElement;
    if (block && block !== root && blocks[blocks.length - 1] !== block) blocks.push(block);
  }
  return blocks;
}

// How far into the body from either end furniture is looked for.
const MAX_LEADING_BLOCKS = 3;
const MAX_CLOSING_BLOCKS = 8;

/**
 * Labels and credits anywhere, datelines and bylines that open the body, and the calls to
 * subscribe, follow or share (and the copyright) that close it.
 */
function removeFurnitureText(root: Element): void {
  const blocks = textBlocks(root).map((element) => ({ element, text: blockText(element) }));
  const furniture = new Set<Element>();
  for (const { element, text } of blocks) if (isFurnitureLabel(text)) furniture.add(element);
  const body = blocks.filter(({ element }) => !furniture.has(element));
  for (const { element, text } of body.slice(0, MAX_LEADING_BLOCKS)) {
    if (!isDateline(text)) break;
    furniture.add(element);
  }
  for (const { element, text } of body.slice(-MAX_CLOSING_BLOCKS).reverse()) {
    if (!isClosingFurniture(text)) break;
    furniture.add(element);
  }
  for (const element of furniture) element.remove();
}

/** `title`: the page's title, from its metadata. */
export function postClean(root: Element, title: string | null): void {
  if (title) removeHeadline(root, title);
  removeBoilerplateBlocks(root);
  removeLinkLists(root);
  removeFurnitureText(root);
}
