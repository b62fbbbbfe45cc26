// Narrows the document to the elements that publishers mark as the article body, when they hold
// enough text, so that Readability scores only inside them instead of the whole page (less to
// score, and less page furniture to mistake for the body). A body split over several marked
// blocks (e.g. around an ad slot) keeps all of its blocks.

// The kinds of container, tried in order; the first that holds enough text wins: the schema.org
// articleBody, the common CMS class names, then HTML's own <article> and main content.
const CONTAINER_CLASS_PARTS = [
  'article-body',
  'articlebody',
  'article__body',
  'entry-content',
  'post-content',
  'post-body',
  'article-text',
  'story-content',
];
const BODY_PROPERTY = 1;
const BODY_CLASS = 2;
const ARTICLE = 4;
const MAIN = 8;
/** How many kinds of container `containerKinds` tells apart. */
export const CONTAINER_KIND_COUNT = 4;
const MIN_TEXT_LENGTH = 500;
const MIN_PART_LENGTH = 140;

/**
 * The kinds of body container the element is, as a bit set (bit i: kind i, tried in that
 * order). `lowerClass` is the element's class attribute in lower case ('' without one).
 */
export function containerKinds(element: Element, lowerClass: string): number {
  const tag = element.localName;
  let kinds = tag === 'article' ? ARTICLE : tag === 'main' ? MAIN : 0;
  if (!element.hasAttributes()) return kinds;
  if (element.getAttribute('itemprop') === 'articleBody') kinds |= BODY_PROPERTY;
  if (lowerClass && CONTAINER_CLASS_PARTS.some((part) => lowerClass.includes(part))) kinds |= BODY_CLASS;
  if (element.getAttribute('role') === 'main') kinds |= MAIN;
  return kinds;
}

function textLength(element: Element): number {
  return (element.textContent ?? '').replace(/\s+/g, ' ').length;
}

/**
 * `containers[kind]`: the outermost elements of that kind in the body, in document order, once
 * pre-cleaning has run (see ./page-scan.ts).
 */
export function focusOnArticleContainer(document: Document, containers: Element[][]): void {
  const body = document.body;
  if (!body) return;
  for (const outermost of containers) {
    const parts = outermost
      .filter((element) => element.isConnected)
      .map((element) => ({ element, length: textLength(element) }))
      .filter((part) => part.length >= MIN_PART_LENGTH);
    if (parts.some((part) => part.length >= MIN_TEXT_LENGTH)) {
      body.replaceChildren(...parts.map((part) => part.element));
      return;
    }
  }
}
