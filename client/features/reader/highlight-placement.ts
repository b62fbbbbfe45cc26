// Where highlights land in the rendered article: text highlights are anchored in one anchorAll
// over the article's text index (reading order, position then quote then fuzzy), image
// highlights are found by their URL. Both painters start from this.
import { anchorAll } from '../../../src/anchoring/anchor.ts';
import { offsetsFromRange, type TextIndex } from '../../../src/anchoring/dom.ts';
import type { HighlightSelectors } from '../../../src/anchoring/types.ts';
import { highlightColours } from '../highlights/highlight-look.ts';
import { type PaintableHighlight, type SortedSpans, type Span, sortSpans } from './highlight-spans.ts';

/** Where a highlight landed: text offsets (images: the offset just before the image). */
export interface Placement {
  start: number;
  end: number;
  slotId: number;
}

export interface PlacedImage {
  image: HTMLImageElement;
  highlight: PaintableHighlight;
}

export interface Placed {
  text: SortedSpans;
  images: PlacedImage[];
  /** Every placed highlight; a text highlight missing here could not be placed. */
  placements: Map<string, Placement>;
}

/**
 * The address an article image stands for: where it came from (`data-source`, which the reader's
 * stored copies carry), else what it shows. What an image highlight records and is found by.
 */
export function imageSourceOf(image: HTMLImageElement): string {
  return image.dataset.source || image.currentSrc || image.src;
}

function sameImage(image: HTMLImageElement, url: string): boolean {
  return imageSourceOf(image) === url || image.currentSrc === url || image.src === url;
}

/** The text offset at an image (for reading order). */
function imageOffset(root: HTMLElement, index: TextIndex, image: Element): number {
  const before = document.createRange();
  before.setStartBefore(image);
  return offsetsFromRange(root, before, index)?.start ?? index.text.length;
}

export function placeHighlights(
  root: HTMLElement,
  index: TextIndex,
  highlights: readonly PaintableHighlight[],
): Placed {
  const placements = new Map<string, Placement>();
  const withText = highlights.filter(
    (highlight): highlight is PaintableHighlight & { selectors: HighlightSelectors } =>
      highlight.selectors != null,
  );
  const spans: Span[] = [];
  anchorAll(
    index.text,
    withText.map((highlight) => highlight.selectors),
  ).forEach((result, i) => {
    if (result.status === 'detached' || result.end <= result.start) return;
    const highlight = withText[i]!;
    spans.push({ start: result.start, end: result.end, highlight });
    placements.set(highlight.id, { start: result.start, end: result.end, slotId: highlight.slotId });
  });
  const images: PlacedImage[] = [];
  const candidates = [...root.querySelectorAll('img')];
  for (const highlight of highlights) {
    if (highlight.selectors || !highlight.imageUrl) continue;
    const image = candidates.find((img) => sameImage(img, highlight.imageUrl as string));
    if (!image) continue;
    images.push({ image, highlight });
    const start = imageOffset(root, index, image);
    placements.set(highlight.id, { start, end: start, slotId: highlight.slotId });
  }
  return { text: sortSpans(spans), images, placements };
}

/** Gives an element a highlight's id and colours (an image highlight, or a mark). */
export function decorate(element: HTMLElement, highlight: PaintableHighlight): void {
  element.dataset.highlightId = highlight.id;
  for (const [name, value] of Object.entries(highlightColours(highlight.slotId)))
    element.style.setProperty(name, value);
}

const IMAGE_SELECTOR = 'img[data-highlight-id]';

export function markImages(images: readonly PlacedImage[]): void {
  for (const { image, highlight } of images) {
    image.classList.add('hl-image');
    decorate(image, highlight);
  }
}

export function clearImages(root: HTMLElement): void {
  for (const image of root.querySelectorAll<HTMLElement>(IMAGE_SELECTOR)) {
    image.removeAttribute('data-highlight-id');
    image.classList.remove('hl-image');
    image.style.removeProperty('--hl-strong');
    image.style.removeProperty('--hl-light');
  }
}

/** The id on a painted element (an image highlight or a mark) at or above `target` in root. */
export function paintedElementId(root: HTMLElement, target: EventTarget | null): string | undefined {
  const element = (target as Element | null)?.closest?.<HTMLElement>('[data-highlight-id]');
  return element && root.contains(element) ? element.dataset.highlightId : undefined;
}

/** A Range from the first to the last painted element of a highlight (marks, an image). */
export function paintedElementsRange(root: HTMLElement, id: string): Range | undefined {
  const elements = root.querySelectorAll(`[data-highlight-id="${CSS.escape(id)}"]`);
  const first = elements[0];
  if (!first) return undefined;
  const range = document.createRange();
  range.setStartBefore(first);
  range.setEndAfter(elements[elements.length - 1]!);
  return range;
}
