// Highlights made by dragging snap to whole words: a selection that starts or ends inside a word
// grows to take the whole word, and whitespace at its ends is dropped. Scripts written without
// spaces between words (Han, Kana, Thai and its neighbours) and Korean keep the exact selection:
// a "word" there is a dictionary guess, and a reader often wants part of one.
import { isJsWhitespace } from '../text/whitespace.ts';

const EXACT_SCRIPTS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** How far either side of an offset we look for its word; longer words are left as they are. */
const WINDOW = 64;

let segmenter: Intl.Segmenter | undefined;

/** The [start, end) of the word-like segment holding the code unit at `offset`, if any. */
function wordAt(text: string, offset: number): { start: number; end: number; word: string } | null {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  const windowStart = Math.max(0, offset - WINDOW);
  const windowEnd = Math.min(text.length, offset + WINDOW);
  const segment = segmenter.segment(text.slice(windowStart, windowEnd)).containing(offset - windowStart);
  if (!segment?.isWordLike) return null;
  const start = windowStart + segment.index;
  const end = start + segment.segment.length;
  // A segment cut by the window may be part of a longer word: where it ends is unknown.
  if ((start === windowStart && start > 0) || (end === windowEnd && end < text.length)) return null;
  return { start, end, word: segment.segment };
}

/**
 * The range text[start, end) snapped to whole words (see above), with whitespace at its ends
 * trimmed. An all-whitespace range comes back empty (start === end).
 */
export function snapToWords(text: string, start: number, end: number): { start: number; end: number } {
  let low = Math.max(0, Math.min(start, end));
  let high = Math.min(text.length, Math.max(start, end));
  while (low < high && isJsWhitespace(text.charCodeAt(low))) low++;
  while (high > low && isJsWhitespace(text.charCodeAt(high - 1))) high--;
  if (low === high) return { start: low, end: low };
  const first = wordAt(text, low);
  if (first && first.start < low && !EXACT_SCRIPTS.test(first.word)) low = first.start;
  const last = wordAt(text, high - 1);
  if (last && last.end > high && !EXACT_SCRIPTS.test(last.word)) high = last.end;
  return { start: low, end: high };
}
