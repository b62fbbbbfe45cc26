// A highlight's frame: its stored prefix and suffix, each standing whole and unchanged, with text
// between them within a few edits of the quote. That text is where the highlight is, edges and
// all: a character typed or removed at the quote's first or last character is part of it, and a
// copy of the rest of the quote one character off is not the highlight. On normalised text.
import type { QuoteContext } from './context.ts';
import { levenshtein } from './edit-distance.ts';

export interface Frame {
  start: number;
  end: number;
  /** Edits between the quote and the framed text. */
  edits: number;
}

/** Occurrences of the prefix looked at, the nearest to where the highlight is expected. */
const MAX_FRAMES = 16;
/** The stored context, both sides together, that makes a frame telling. */
const MIN_FRAME_CONTEXT = 16;

/** Where the gap after an unchanged prefix may start: after its occurrences. */
function gapStarts(text: string, prefix: string, expected: number | undefined): number[] {
  let starts: number[] = [];
  for (let at = text.indexOf(prefix); at !== -1; at = text.indexOf(prefix, at + 1)) {
    starts.push(at + prefix.length);
  }
  if (starts.length > MAX_FRAMES) {
    if (expected === undefined) return [];
    starts = starts.sort((a, b) => Math.abs(a - expected) - Math.abs(b - expected)).slice(0, MAX_FRAMES);
  }
  return starts;
}

/**
 * Edits between the quote and the framed text. A space at the context's edge may have been the
 * quote's too: with a character deleted next to it, its neighbour's space stands for both.
 */
function framedEdits(exact: string, framed: string, { prefix, suffix }: QuoteContext): number {
  const edits = levenshtein(exact, framed);
  const before = prefix.endsWith(' ') && !framed.startsWith(' ') ? ' ' : '';
  const after = suffix.startsWith(' ') && !framed.endsWith(' ') ? ' ' : '';
  if (edits <= 1 || (before === '' && after === '')) return edits;
  const widened = new Set([before + framed, framed + after, before + framed + after]);
  widened.delete(framed);
  return Math.min(edits, ...[...widened].map((text) => levenshtein(exact, text)));
}

/** Every place `exact` is framed by its whole context with at most `maxEdits` edits inside. */
export function frames(
  text: string,
  exact: string,
  context: QuoteContext,
  maxEdits: number,
  expected: number | undefined,
): Frame[] {
  const { prefix, suffix } = context;
  // At the text's edge nothing tells a typo at the quote's edge from text added beyond it.
  if (prefix.length === 0 || suffix.length === 0 || prefix.length + suffix.length < MIN_FRAME_CONTEXT) {
    return [];
  }
  const found: Frame[] = [];
  for (const start of gapStarts(text, prefix, expected)) {
    const last = Math.min(text.length, start + exact.length + maxEdits);
    // Two fewer for the spaces the context may have taken from the quote (see framedEdits).
    for (let end = start + Math.max(1, exact.length - maxEdits - 2); end <= last; end++) {
      if (!text.startsWith(suffix, end)) continue;
      const edits = framedEdits(exact, text.slice(start, end), context);
      if (edits > maxEdits) continue;
      // A character deleted next to a space leaves the space at the edge: it is not the quote's.
      const from = exact[0] !== ' ' && text[start] === ' ' ? start + 1 : start;
      const to = exact[exact.length - 1] !== ' ' && text[end - 1] === ' ' ? end - 1 : end;
      if (from < to) found.push({ start: from, end: to, edits });
    }
  }
  return found;
}

/** The one frame with the fewest edits, or undefined when there is none or two tie. */
export function soleFrame(found: readonly Frame[]): Frame | undefined {
  const fewest = Math.min(...found.map((frame) => frame.edits));
  const best = found.filter((frame) => frame.edits === fewest);
  return best.length === 1 ? best[0] : undefined;
}
