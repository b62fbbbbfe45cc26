export { anchor, anchorAll } from './anchor.ts';
export { DEFAULT_CONTEXT_LENGTH, describeRange } from './describe.ts';
export { isGraphemeBoundary, snapEndToGrapheme, snapStartToGrapheme } from './graphemes.ts';
export { type NormalizedText, normalizeText, toNormalizedOffset, toOriginalRange } from './normalize.ts';
export type {
  AnchoredStatus,
  AnchorOptions,
  AnchorResult,
  HighlightSelectors,
  TextPositionSelector,
  TextQuoteSelector,
} from './types.ts';
export { AnchorStatus } from './types.ts';
