import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { toStorableText, toStorableTextOrNull } from '../../../../src/rules/text.ts';
import { domText } from '../../../../src/text/dom-text.ts';
import { countWords } from '../../../../src/text/word-count.ts';
import { focusOnArticleContainer } from './focus.ts';
import { absoluteUrl, readMetadata } from './metadata.ts';
import { scanPage } from './page-scan.ts';
import { postClean } from './post-clean.ts';
import { removeAll, unwrapEmbeddedPosts } from './pre-clean.ts';
import { type StageListener, stageClock } from './stage-clock.ts';
import type { ExtractedArticle } from './types.ts';

export type { ExtractedArticle } from './types.ts';

const EXCERPT_LENGTH = 300;
const URL_ATTRIBUTES = ['href', 'src', 'poster'] as const;

const HEAD_ONLY_TAGS = new Set(['HEAD', 'BODY', 'TITLE', 'META', 'LINK', 'BASE', 'STYLE', 'SCRIPT']);

// linkedom does not run the HTML tree-construction rules that imply <html> and <body>, so a
// fragment, or content placed outside <body>, is moved to where a browser would put it.
function parseDocument(html: string): Document {
  let { document } = parseHTML(html) as unknown as { document: Document };
  if (document.documentElement?.tagName !== 'HTML') {
    document = (
      parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`) as unknown as {
        document: Document;
      }
    ).document;
  }
  const body = document.body;
  for (const child of [...document.documentElement.childNodes]) {
    if (child.nodeType === 1 && HEAD_ONLY_TAGS.has((child as Element).tagName)) continue;
    if (child.nodeType === 1 || child.nodeType === 3) body.append(child);
  }
  return document;
}

function makeUrlsAbsolute(root: Element, baseUrl: string): void {
  for (const attribute of URL_ATTRIBUTES) {
    for (const element of root.querySelectorAll(`[${attribute}]`)) {
      const value = element.getAttribute(attribute) ?? '';
      if (value.startsWith('#')) continue;
      const absolute = absoluteUrl(value, baseUrl);
      if (absolute) element.setAttribute(attribute, absolute);
      else element.removeAttribute(attribute);
    }
  }
  for (const element of root.querySelectorAll('[srcset]')) {
    const srcset = (element.getAttribute('srcset') ?? '')
      .split(',')
      .map((candidate) => {
        const [source = '', ...descriptor] = candidate.trim().split(/\s+/);
        const absolute = absoluteUrl(source, baseUrl);
        return absolute ? [absolute, ...descriptor].join(' ') : '';
      })
      .filter(Boolean)
      .join(', ');
    element.setAttribute('srcset', srcset);
  }
}

/** Icons and tracking pixels declare themselves this small; a card's picture is larger. */
const IMAGE_MIN_SIDE = 64;

/** The article's first picture, for a page whose metadata names no lead image (the list's cards show it). */
function firstImage(root: Element): string | null {
  for (const image of root.querySelectorAll('img[src]')) {
    const src = image.getAttribute('src') ?? '';
    const sides = [image.getAttribute('width'), image.getAttribute('height')].map(Number);
    if (/^https?:\/\//i.test(src) && !sides.some((side) => side > 0 && side < IMAGE_MIN_SIDE)) return src;
  }
  return null;
}

function baseUrlOf(baseHref: string | null, pageUrl: string): string {
  return absoluteUrl(baseHref, pageUrl) ?? pageUrl;
}

function truncate(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const cut = flat.slice(0, length - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > length * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

// Readability gives up on pages with too little text to score (a short note, a one-line post); the
// page's own body, stripped of chrome, is then the best answer.
function wholeBodyFallback(html: string): Element | null {
  const document = parseDocument(html);
  removeAll(scanPage(document).neverArticle);
  for (const element of document.querySelectorAll('script, style, noscript, template')) element.remove();
  return document.body;
}

/**
 * What a page gave us, made storable: a page's text, its metadata and JSON-LD (where \u0000
 * decodes to NUL) may carry NUL or lone surrogates, which PostgreSQL refuses or cannot keep.
 * They become U+FFFD here, so a hostile page cannot fail its clip job with a database error.
 */
function storable(article: ExtractedArticle): ExtractedArticle {
  return {
    ...article,
    title: toStorableTextOrNull(article.title),
    siteName: toStorableTextOrNull(article.siteName),
    author: toStorableTextOrNull(article.author),
    leadImageUrl: toStorableTextOrNull(article.leadImageUrl),
    contentHtml: toStorableText(article.contentHtml),
    text: toStorableText(article.text),
    excerpt: toStorableText(article.excerpt),
    lang: toStorableTextOrNull(article.lang),
  };
}

export function extractArticle(html: string, url: string, onStage?: StageListener): ExtractedArticle {
  const lap = stageClock(onStage);
  const document = parseDocument(html);
  lap('parse');
  const scan = scanPage(document);
  lap('scan');
  const metadata = readMetadata(scan.metadata, url);
  const baseUrl = baseUrlOf(scan.baseHref, url);
  lap('metadata');
  removeAll(scan.neverArticle);
  unwrapEmbeddedPosts(scan.embeddedPosts);
  lap('pre-clean');
  focusOnArticleContainer(document, scan.containers);
  lap('focus');
  const parsed = new Readability<Element>(document, {
    serializer: (node) => node as Element,
    keepClasses: true,
  }).parse();
  lap('readability');
  let body = parsed?.content ?? null;
  const title = metadata.title ?? parsed?.title ?? null;
  if (body) postClean(body, title);
  lap('post-clean');
  if (!body?.textContent?.trim()) body = wholeBodyFallback(html);
  lap('fallback');
  let contentHtml = '';
  let text = '';
  let leadImageUrl = metadata.leadImageUrl;
  if (body) {
    makeUrlsAbsolute(body, baseUrl);
    leadImageUrl ??= firstImage(body);
    // Classes were kept only for post-cleaning; the reader styles the body itself.
    for (const element of body.querySelectorAll('[class]')) element.removeAttribute('class');
    lap('absolute-urls');
    contentHtml = body.innerHTML.trim();
    lap('serialise');
    text = domText(body).text;
    lap('text');
  }
  const article = storable({
    title,
    siteName: metadata.siteName ?? parsed?.siteName ?? null,
    author: metadata.author ?? parsed?.byline ?? null,
    publishedAt: metadata.publishedAt,
    leadImageUrl,
    contentHtml,
    text,
    excerpt: truncate(metadata.excerpt || text, EXCERPT_LENGTH),
    lang: metadata.lang ?? parsed?.lang ?? null,
    wordCount: countWords(text),
  });
  lap('finish');
  return article;
}
