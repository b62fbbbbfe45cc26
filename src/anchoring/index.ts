export { anchor, anchorAll } from './anchor.ts';
export { describeRange } from './describe.ts';
export { type NormalizedText, normalizeText } from './normalize.ts';
export type {
  AnchoredStatus,
  AnchorResult,
  HighlightSelectors,
  TextPositionSelector,
  TextQuoteSelector,
} from './types.ts';
export { snapToWords } from './words.ts';
