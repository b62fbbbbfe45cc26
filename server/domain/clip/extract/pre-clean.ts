// Removes, before Readability scores the page, blocks that are never article body: image captions
// and credits (the body's text conventions leave them out), hidden elements, page chrome marked up
// as such (navigation, asides, footers, banners) and lists of articles inside an article (related
// stories, comments), which Readability would otherwise join to the body as its siblings. What
// never renders (scripts, styles, links) goes too: Readability would drop it unread, but only
// after walking over it. The elements are found by the page scan (./page-scan.ts), which asks the
// rules below.

const CAPTION_TAGS = new Set(['figcaption']);
const CAPTION_CLASS_PARTS = ['caption', 'credit'];
const CHROME_TAGS = new Set(['nav', 'aside', 'footer']);
const UNRENDERED_TAGS = new Set(['style', 'link']);
const JSON_LD_TYPE = 'application/ld+json';
const CHROME_ROLES = new Set(['navigation', 'complementary', 'contentinfo', 'banner']);
const HIDING_STYLES = ['display:none', 'display: none'];

export function isJsonLd(script: Element): boolean {
  return script.getAttribute('type')?.toLowerCase() === JSON_LD_TYPE;
}

/** `lowerClass` is the element's class attribute in lower case ('' without one). */
export function isNeverArticle(element: Element, lowerClass: string): boolean {
  const tag = element.localName;
  if (tag === 'body' || tag === 'html') return false;
  if (CAPTION_TAGS.has(tag) || CHROME_TAGS.has(tag) || UNRENDERED_TAGS.has(tag)) return true;
  // JSON-LD stays: Readability reads the page's metadata from it, as ./metadata.ts does.
  if (tag === 'script') return !isJsonLd(element);
  if (!element.hasAttributes()) return false;
  if (CAPTION_CLASS_PARTS.some((part) => lowerClass.includes(part))) return true;
  if (element.hasAttribute('hidden') || element.getAttribute('aria-hidden') === 'true') return true;
  const role = element.getAttribute('role');
  if (role !== null && CHROME_ROLES.has(role)) return true;
  const style = element.getAttribute('style')?.toLowerCase();
  return style !== undefined && HIDING_STYLES.some((hiding) => style.includes(hiding));
}

// One article inside another may be the body in a page-level wrapper; several are a list.
const MIN_ARTICLE_LIST_LENGTH = 2;

/** `nested`: the articles directly inside one article. */
export function isArticleList(nested: Element[]): boolean {
  return nested.length >= MIN_ARTICLE_LIST_LENGTH;
}

// A post quoted from a social network is the article's quotation; the widget wrapping it is often
// named for what it is ("social-embed") or scored as a block of links, and Readability drops it.
const EMBEDDED_POST_CLASSES = ['twitter-tweet', 'instagram-media', 'tiktok-embed', 'bluesky-embed'];

/** `lowerClass` is the element's class attribute in lower case ('' without one). */
export function isEmbeddedPost(tag: string, lowerClass: string): boolean {
  return tag === 'blockquote' && EMBEDDED_POST_CLASSES.some((name) => lowerClass.includes(name));
}

/**
 * Puts each embedded post in the place of the wrappers that hold nothing else, so that it is
 * scored as a quotation among the paragraphs. Runs once pre-cleaning has removed the embed's
 * scripts.
 */
export function unwrapEmbeddedPosts(posts: Element[]): void {
  for (const post of posts) {
    let outermost: Element = post;
    for (
      let wrapper = post.parentElement;
      wrapper && wrapper.localName !== 'body' && wrapper.children.length === 1;
      wrapper = wrapper.parentElement
    )
      outermost = wrapper;
    if (outermost !== post && (outermost.textContent ?? '').trim() === (post.textContent ?? '').trim())
      outermost.replaceWith(post);
  }
}

export function removeAll(elements: Element[]): void {
  for (const element of elements) element.remove();
}
