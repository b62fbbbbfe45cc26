// Grapheme-safe range ends: a highlight never splits a surrogate pair, a combining sequence,
// an emoji ZWJ sequence or a flag.

let segmenter: Intl.Segmenter | undefined;
function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
}

/** How far either side of an offset we look; longer clusters than this are pathological. */
const WINDOW = 64;

/**
 * Below U+0300 nothing extends a preceding cluster (no combining marks, no ZWJ, no variation
 * selectors), so an offset before such a code unit is a boundary unless it sits inside CR LF.
 */
function isTriviallyBoundary(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return true;
  const next = text.charCodeAt(offset);
  if (next >= 0x300) return false;
  return !(next === 0x0a && text.charCodeAt(offset - 1) === 0x0d);
}

/** The [start, end) of the grapheme cluster containing the code unit at `offset`. */
function clusterAt(text: string, offset: number): { start: number; end: number } {
  const windowStart = Math.max(0, offset - WINDOW);
  const windowText = text.slice(windowStart, Math.min(text.length, offset + WINDOW));
  const segment = graphemeSegmenter()
    .segment(windowText)
    .containing(offset - windowStart);
  if (!segment) return { start: offset, end: offset };
  const start = windowStart + segment.index;
  return { start, end: start + segment.segment.length };
}

export function isGraphemeBoundary(text: string, offset: number): boolean {
  if (isTriviallyBoundary(text, offset)) return true;
  return clusterAt(text, offset).start === offset;
}

/** Moves a range start back to the start of the cluster it falls inside. */
export function snapStartToGrapheme(text: string, offset: number): number {
  if (isTriviallyBoundary(text, offset)) return offset;
  return clusterAt(text, offset).start;
}

/** Moves a range end forward to the end of the cluster it falls inside. */
export function snapEndToGrapheme(text: string, offset: number): number {
  if (isTriviallyBoundary(text, offset)) return offset;
  const cluster = clusterAt(text, offset);
  return cluster.start === offset ? offset : cluster.end;
}
