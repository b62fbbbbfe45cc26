// Narrows the document to the elements that publishers mark as the article body, when they hold
// enough text, so that Readability scores only inside them instead of the whole page. A body
// split over several marked blocks (e.g. around an ad slot) keeps all of its blocks.

// Tried in order; the first that matches enough text wins. Class names are the common CMS ones.
const BODY_CONTAINER_SELECTORS = [
  '[itemprop="articleBody"]',
  [
    'article-body',
    'articlebody',
    'article__body',
    'entry-content',
    'post-content',
    'post-body',
    'article-text',
    'story-content',
  ]
    .map((name) => `[class*="${name}" i]`)
    .join(', '),
];
const MIN_TEXT_LENGTH = 500;
const MIN_PART_LENGTH = 140;

function textLength(element: Element): number {
  return (element.textContent ?? '').replace(/\s+/g, ' ').length;
}

export function focusOnArticleContainer(document: Document): void {
  const body = document.body;
  if (!body) return;
  for (const selector of BODY_CONTAINER_SELECTORS) {
    const outermost = [...body.querySelectorAll(selector)].filter(
      (element) => !element.parentElement?.closest(selector),
    );
    const parts = outermost
      .map((element) => ({ element, length: textLength(element) }))
      .filter((part) => part.length >= MIN_PART_LENGTH);
    if (parts.some((part) => part.length >= MIN_TEXT_LENGTH)) {
      body.replaceChildren(...parts.map((part) => part.element));
      return;
    }
  }
}
