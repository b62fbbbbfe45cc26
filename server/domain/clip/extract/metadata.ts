// Page metadata from JSON-LD (schema.org Article types) and <meta> tags.

/** What the page scan (./page-scan.ts) collects for the metadata, in one walk. */
export type MetadataSources = {
  /** The content attribute of the first <meta> with each property, null without one. */
  metaByProperty: Map<string, string | null>;
  /** The same for each name. */
  metaByName: Map<string, string | null>;
  /** The text of each JSON-LD script, in document order. */
  jsonLd: string[];
  /** The text of the first <title>. */
  title: string | null;
  /** The root element's lang attribute. */
  lang: string | null;
};

export type PageMetadata = {
  title: string | null;
  siteName: string | null;
  author: string | null;
  publishedAt: Date | null;
  leadImageUrl: string | null;
  lang: string | null;
  excerpt: string | null;
  /** schema.org articleBody, when the page publishes one. */
  jsonLdArticleBody: string | null;
};

type JsonObject = Record<string, unknown>;

const ARTICLE_TYPE = /(Article|BlogPosting|Posting|Report)$/;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function collectObjects(value: unknown, into: JsonObject[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collectObjects(item, into);
  } else if (isObject(value)) {
    into.push(value);
    if (value['@graph']) collectObjects(value['@graph'], into);
  }
}

function typesOf(object: JsonObject): string[] {
  const type = object['@type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

function firstString(value: unknown, key = 'name'): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (Array.isArray(value)) {
    const names = value.map((item) => firstString(item, key)).filter((name): name is string => !!name);
    return names.length ? names.join(', ') : null;
  }
  if (isObject(value)) return firstString(value[key], key);
  return null;
}

function jsonLdArticle(scripts: string[]): JsonObject | null {
  const objects: JsonObject[] = [];
  for (const script of scripts) {
    try {
      collectObjects(JSON.parse(script.trim()), objects);
    } catch {
      // Malformed JSON-LD is common; the page's other metadata still applies.
    }
  }
  return objects.find((object) => typesOf(object).some((type) => ARTICLE_TYPE.test(type))) ?? null;
}

function metaContent(sources: MetadataSources, ...keys: string[]): string | null {
  for (const key of keys) {
    const content = (
      sources.metaByProperty.has(key) ? sources.metaByProperty.get(key) : sources.metaByName.get(key)
    )?.trim();
    if (content) return content;
  }
  return null;
}

/**
 * A page's own date, when it is one PostgreSQL can store: JavaScript dates reach 271821 BC,
 * PostgreSQL's stop at 4713 BC, and no article is dated outside years 1 to 9999.
 */
function parseDate(value: string | null): Date | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999 ? date : null;
}

export function absoluteUrl(value: string | null, baseUrl: string): string | null {
  if (!value) return null;
  try {
    return new URL(value.trim(), baseUrl).href;
  } catch {
    return null;
  }
}

export function readMetadata(sources: MetadataSources, url: string): PageMetadata {
  const article = jsonLdArticle(sources.jsonLd);
  const fromLd = (key: string, sub = 'name'): string | null =>
    article ? firstString(article[key], sub) : null;
  const lang =
    sources.lang?.trim() ||
    fromLd('inLanguage') ||
    metaContent(sources, 'og:locale')?.replace('_', '-') ||
    null;
  return {
    title:
      metaContent(sources, 'og:title', 'twitter:title') ??
      fromLd('headline') ??
      (sources.title?.trim() || null),
    siteName: metaContent(sources, 'og:site_name', 'application-name') ?? fromLd('publisher'),
    author: fromLd('author') ?? metaContent(sources, 'author', 'article:author', 'parsely-author', 'byl'),
    publishedAt: parseDate(
      fromLd('datePublished') ??
        metaContent(sources, 'article:published_time', 'parsely-pub-date', 'date', 'dc.date', 'pubdate'),
    ),
    leadImageUrl: absoluteUrl(
      metaContent(sources, 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src') ??
        fromLd('image', 'url'),
      url,
    ),
    lang,
    excerpt: metaContent(sources, 'description', 'og:description', 'twitter:description'),
    jsonLdArticleBody: fromLd('articleBody'),
  };
}
