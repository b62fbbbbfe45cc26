// One walk over the parsed page that gathers what the stages before Readability need, instead of
// a selector query per rule: the metadata's sources, the elements pre-cleaning removes
// (./pre-clean.ts) and the candidate article containers (./focus.ts).
import { CONTAINER_KIND_COUNT, containerKinds } from './focus.ts';
import type { MetadataSources } from './metadata.ts';
import { isArticleList, isEmbeddedPost, isJsonLd, isNeverArticle } from './pre-clean.ts';
import { walkElements } from './walk-elements.ts';

type PageScan = {
  metadata: MetadataSources;
  /** The first <base href>, as written. */
  baseHref: string | null;
  /** The elements pre-cleaning removes. */
  neverArticle: Element[];
  /**
   * Per container kind, its outermost elements in the body, in document order, leaving out those
   * inside the elements `isNeverArticle` removes (but not those in removed article lists).
   */
  containers: Element[][];
  /** Posts embedded from social networks (see `isEmbeddedPost`), outside removed elements. */
  embeddedPosts: Element[];
};

type Frame = {
  /** Inside an element pre-cleaning removes. */
  removed: boolean;
  inBody: boolean;
  /** Container kinds of the element or an ancestor. */
  containerKinds: number;
  /** The innermost <article> that is the element or holds it. */
  article: Element | null;
};

function collectMetadataSource(element: Element, tag: string, scan: PageScan): void {
  const { metadata } = scan;
  if (tag === 'meta') {
    if (!element.hasAttributes()) return;
    const content = element.getAttribute('content');
    const property = element.getAttribute('property');
    if (property !== null && !metadata.metaByProperty.has(property))
      metadata.metaByProperty.set(property, content);
    const name = element.getAttribute('name');
    if (name !== null && !metadata.metaByName.has(name)) metadata.metaByName.set(name, content);
  } else if (tag === 'script') {
    if (isJsonLd(element)) metadata.jsonLd.push(element.textContent ?? '');
  } else if (tag === 'title') {
    metadata.title ??= element.textContent ?? '';
  } else if (tag === 'base') {
    if (scan.baseHref === null) scan.baseHref = element.getAttribute('href');
  }
}

export function scanPage(document: Document): PageScan {
  const scan: PageScan = {
    metadata: {
      metaByProperty: new Map(),
      metaByName: new Map(),
      jsonLd: [],
      title: null,
      lang: document.documentElement?.getAttribute('lang') ?? null,
    },
    baseHref: null,
    neverArticle: [],
    containers: Array.from({ length: CONTAINER_KIND_COUNT }, () => []),
    embeddedPosts: [],
  };
  const root = document.documentElement;
  if (!root) return scan;
  // Per <article>, the articles directly inside it (no other article between them).
  const nestedArticles = new Map<Element, Element[]>();

  const visit = (element: Element, outer: Frame | undefined): Frame => {
    const tag = element.localName;
    collectMetadataSource(element, tag, scan);
    // The attribute as written: the className getter would first join the class list anew.
    const lowerClass = element.getAttributeNode('class')?.value.toLowerCase() ?? '';
    let removed = outer?.removed ?? false;
    if (!removed && isNeverArticle(element, lowerClass)) {
      scan.neverArticle.push(element);
      removed = true;
    }
    if (!removed && isEmbeddedPost(tag, lowerClass)) scan.embeddedPosts.push(element);
    const inBody = (outer?.inBody ?? false) || tag === 'body';
    const kinds = containerKinds(element, lowerClass);
    const outerKinds = outer?.containerKinds ?? 0;
    if (!removed && outer?.inBody) {
      for (let kind = 0; kind < CONTAINER_KIND_COUNT; kind++) {
        const bit = 1 << kind;
        if (kinds & bit && !(outerKinds & bit)) scan.containers[kind]?.push(element);
      }
    }
    let article = outer?.article ?? null;
    if (tag === 'article') {
      if (article && !removed) {
        const nested = nestedArticles.get(article);
        if (nested) nested.push(element);
        else nestedArticles.set(article, [element]);
      }
      article = element;
    }
    return { removed, inBody, containerKinds: kinds | outerKinds, article };
  };

  // A template's content is inert, as it is for querySelector, so the walk leaves it out.
  walkElements(root, visit(root, undefined), (element, parent) => {
    const frame = visit(element, parent);
    return element.localName === 'template' ? null : frame;
  });
  for (const nested of nestedArticles.values()) if (isArticleList(nested)) scan.neverArticle.push(...nested);
  return scan;
}
