export { anchor, anchorAll } from './anchor.ts';
export { describeRange } from './describe.ts';
export { normalizeText } from './normalize.ts';
export type { AnchorResult, HighlightSelectors } from './types.ts';
export { snapToWords } from './words.ts';
