// The images of an article's stored HTML: which addresses the image job fetches, and the HTML the
// reader gets, where each image is Margin's stored copy (with its real size) or a placeholder, so
// nothing in the reader points off-site. Both read the HTML the sanitiser serialised (DOMPurify on
// jsdom: every tag well formed, attribute values quoted, `<` in text escaped), so a scan of its
// start tags finds every image; both ask `imageSource` which address an image stands for.

/** An image as the reader shows it once stored. */
export interface ShownImage {
  src: string;
  width: number;
  height: number;
}

/** What became of an image address: stored, refused for good, or not decided yet (undefined). */
export type ImageOutcome = ShownImage | 'refused' | undefined;

interface Attribute {
  name: string;
  value: string;
}

const START_TAG =
  /<!--[\s\S]*?-->|<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const ENTITY = /&(#x[0-9a-f]+|#\d+|amp|quot|apos|lt|gt|nbsp);/gi;
const NAMED: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: '\u00a0' };

function decodeEntities(value: string): string {
  return value.replace(ENTITY, (whole, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#')) {
      const code = lower.startsWith('#x') ? Number.parseInt(lower.slice(2), 16) : Number(lower.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[lower] ?? whole;
  });
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function parseAttributes(text: string): Attribute[] {
  const attributes: Attribute[] = [];
  for (const match of text.matchAll(ATTRIBUTE)) {
    const raw = match[2] ?? match[3] ?? match[4] ?? '';
    attributes.push({ name: (match[1] ?? '').toLowerCase(), value: decodeEntities(raw) });
  }
  return attributes;
}

const attribute = (attributes: readonly Attribute[], name: string) =>
  attributes.find((a) => a.name === name)?.value;

function httpUrl(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The largest candidate of a srcset (by width, or density), for an image whose src is unusable. */
function largestCandidate(srcset: string): string | null {
  let best: { url: string; size: number } | null = null;
  for (const candidate of srcset.split(/,\s+/)) {
    const [source, descriptor = '1x'] = candidate.trim().split(/\s+/);
    const url = httpUrl(source);
    const size = Number.parseFloat(descriptor) || 1;
    if (url && (!best || size > best.size)) best = { url, size };
  }
  return best?.url ?? null;
}

/** The address an <img> stands for: its src, else its srcset's largest candidate (http or https only). */
function imageSource(attributes: readonly Attribute[]): string | null {
  return httpUrl(attribute(attributes, 'src')) ?? largestCandidate(attribute(attributes, 'srcset') ?? '');
}

/** Every image address of the article, in reading order, each once. */
export function articleImageSources(html: string): string[] {
  const sources = new Set<string>();
  for (const match of html.matchAll(START_TAG)) {
    if (match[1]?.toLowerCase() !== 'img') continue;
    const source = imageSource(parseAttributes(match[2] ?? ''));
    if (source) sources.add(source);
  }
  return [...sources];
}

function tag(name: string, attributes: readonly (readonly [string, string | number | undefined])[]): string {
  const written = attributes
    .filter((a): a is readonly [string, string | number] => a[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeAttribute(String(value))}"`)
    .join('');
  return `<${name}${written}>`;
}

/**
 * A picture that is not there (not stored yet, or refused): a box with its alt text, drawn by the
 * stylesheet from `data-alt`, so the text the highlights anchor to gains nothing.
 */
function placeholder(alt: string, state: 'pending' | 'refused'): string {
  const described = alt.trim()
    ? ([
        ['role', 'img'],
        ['aria-label', alt],
        ['data-alt', alt],
      ] as const)
    : ([['aria-hidden', 'true']] as const);
  return `${tag('span', [['class', 'reader-image-missing'], ['data-state', state], ...described])}</span>`;
}

interface Size {
  width: number;
  height: number;
}

/** A size in pixels the page wrote on an image: a positive whole number, else none. */
const PIXELS = /^\s*([1-9]\d{0,4})\s*$/;

/** The width and height the page declared for an image, when it declared both. */
function declaredSize(attributes: readonly Attribute[]): Size | undefined {
  const width = PIXELS.exec(attribute(attributes, 'width') ?? '')?.[1];
  const height = PIXELS.exec(attribute(attributes, 'height') ?? '')?.[1];
  return width && height ? { width: Number(width), height: Number(height) } : undefined;
}

/**
 * A pending picture whose size the page declared: an empty picture of that size (a blank SVG of
 * the same proportions, as a loaded picture's own ratio wins over its attributes'), so the stored
 * copy takes its place without moving what follows. Its alt text is its name; it is no picture to
 * highlight (the reader offers that only for pictures from a site).
 */
function sizedPlaceholder(alt: string, { width, height }: Size): string {
  const blank = `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 ${width} ${height}'%3E%3C/svg%3E`;
  return tag('img', [
    ['class', 'reader-image-missing'],
    ['data-state', 'pending'],
    ['src', blank],
    ['alt', alt],
    ['aria-label', alt.trim() ? alt : undefined],
    ['width', width],
    ['height', height],
  ]);
}

function readerImage(attributes: readonly Attribute[], outcome: (source: string) => ImageOutcome): string {
  const alt = attribute(attributes, 'alt') ?? '';
  const title = attribute(attributes, 'title');
  const lazy = [
    ['loading', 'lazy'],
    ['decoding', 'async'],
  ] as const;
  const src = attribute(attributes, 'src')?.trim() ?? '';
  // An image written into the page itself needs nothing from anywhere.
  if (/^data:image\//i.test(src))
    return tag('img', [
      ['src', src],
      ['alt', alt],
      ['title', title],
      ['width', attribute(attributes, 'width')],
      ['height', attribute(attributes, 'height')],
      ...lazy,
    ]);
  const source = imageSource(attributes);
  const shown = source ? outcome(source) : 'refused';
  if (shown === 'refused') return placeholder(alt, 'refused');
  if (shown === undefined) {
    const declared = declaredSize(attributes);
    return declared ? sizedPlaceholder(alt, declared) : placeholder(alt, 'pending');
  }
  return tag('img', [
    ['src', shown.src],
    ['alt', alt],
    ['title', title],
    ['width', shown.width],
    ['height', shown.height],
    ...lazy,
    // Where the picture came from: what an image highlight records, and what it is found by.
    ['data-source', source ?? undefined],
  ]);
}

/** Attributes that would load a picture from elsewhere: a video's poster, a legacy background. */
const REMOTE_PICTURE_ATTRIBUTES = new Set(['poster', 'background']);

/**
 * The article as the reader shows it: every <img> Margin's copy (width, height, lazy) or a
 * placeholder; <source srcset> (a <picture>'s alternatives) dropped, and so are posters and
 * background attributes. `outcome` says what became of each image address.
 */
export function readerArticleHtml(html: string, outcome: (source: string) => ImageOutcome): string {
  return html.replace(START_TAG, (whole, name: string | undefined, attributeText: string | undefined) => {
    if (!name) return whole;
    const tagName = name.toLowerCase();
    if (tagName === 'img') return readerImage(parseAttributes(attributeText ?? ''), outcome);
    if (tagName === 'source' && /\ssrcset\s*=/i.test(attributeText ?? '')) return '';
    if (!/\s(poster|background)\s*=/i.test(attributeText ?? '')) return whole;
    const kept = parseAttributes(attributeText ?? '').filter((a) => !REMOTE_PICTURE_ATTRIBUTES.has(a.name));
    return tag(
      name,
      kept.map((a) => [a.name, a.value] as const),
    );
  });
}

/** Whether an article has an image address with no outcome yet (its images are still being stored). */
export function hasPendingImages(
  sources: readonly string[],
  outcome: (source: string) => ImageOutcome,
): boolean {
  return sources.some((source) => outcome(source) === undefined);
}
