/**
 * W3C Web Annotation selectors for a highlight over a page's plain text.
 *
 * Offsets: every offset in this library (TextPositionSelector.start/end, AnchorResult.start/end) is
 * counted in UTF-16 code units of the page's plain text, i.e. JavaScript string indices into the text
 * built by `textIndex()` in `./dom.ts` (all Text nodes of the reader's content root concatenated in
 * document order). Ranges are half-open: [start, end).
 */
export interface TextQuoteSelector {
  type: 'TextQuoteSelector';
  /** The highlighted text itself. */
  exact: string;
  /** Up to `contextLength` code units immediately before the highlight. */
  prefix: string;
  /** Up to `contextLength` code units immediately after the highlight. */
  suffix: string;
}

export interface TextPositionSelector {
  type: 'TextPositionSelector';
  /** Start offset, UTF-16 code units of the page's plain text. */
  start: number;
  /** End offset (exclusive), UTF-16 code units of the page's plain text. */
  end: number;
}

export interface HighlightSelectors {
  quote: TextQuoteSelector;
  position: TextPositionSelector;
}

export type AnchoredStatus = 'exact-position' | 'exact-quote' | 'fuzzy';

/**
 * Where a highlight lands in the current text. `score` is a confidence in 0..1:
 * half quote similarity, a quarter each for prefix and suffix similarity. A highlight that
 * cannot be placed is `detached`: the caller keeps it and shows it as such, never drops it.
 */
export type AnchorResult =
  | { status: AnchoredStatus; start: number; end: number; score: number }
  | { status: 'detached' };
