// Narrows the document to the elements that publishers mark as the article body, when they hold
// enough text, so that Readability scores only inside them instead of the whole page. A body
// split over several marked blocks (e.g. around an ad slot) keeps all of its blocks.

const BODY_CONTAINER_SELECTORS = (
  process.env.FOCUS ??
  '[itemprop="articleBody"]|[class*="article-body" i],[class*="articlebody" i],[class*="article__body" i],[class*="entry-content" i],[class*="post-content" i],[class*="post-body" i],[class*="article-text" i],[class*="story-content" i]'
)
  .split('|')
  .filter(Boolean);
const MIN_TEXT_LENGTH = Number(process.env.FOCUS_MIN ?? 500);
const MIN_PART_LENGTH = Number(process.env.FOCUS_PART ?? 140);

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
