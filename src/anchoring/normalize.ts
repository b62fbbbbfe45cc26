// Text normalisation for the fuzzy path: differences a re-parse introduces without changing what
// the reader sees (whitespace runs, NBSP, typographic quotes and dashes, leftover HTML entities,
// zero-width characters) are folded away, and every normalised code unit remembers the original
// range it came from so matches map back to the page text.

import { lowerBound } from '../sorted-search.ts';
import { isUnicodeSpace } from '../text/whitespace.ts';

export interface NormalizedText {
  text: string;
  /** Original start offset of the unit each normalised code unit came from. */
  starts: Int32Array;
  /** Original end offset (exclusive) of the unit each normalised code unit came from. */
  ends: Int32Array;
  /** Length of the original text. */
  originalLength: number;
}

const REMOVED = new Set([0x00ad, 0x200b, 0x2060, 0xfeff]);
const FOLDED: ReadonlyMap<number, string> = new Map([
  [0x2018, "'"],
  [0x2019, "'"],
  [0x201a, "'"],
  [0x201b, "'"],
  [0x2032, "'"],
  [0x201c, '"'],
  [0x201d, '"'],
  [0x201e, '"'],
  [0x201f, '"'],
  [0x2033, '"'],
  [0x2010, '-'],
  [0x2011, '-'],
  [0x2012, '-'],
  [0x2013, '-'],
  [0x2014, '-'],
  [0x2015, '-'],
  [0x2212, '-'],
  [0x2026, '...'],
]);
const NAMED_ENTITIES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', '\u00a0'],
]);
const ENTITY = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,4});/y;

/** A decoded entity at `offset` (text and source length), if one of the handful a parser may leave. */
function entityAt(text: string, offset: number): { value: string; length: number } | undefined {
  ENTITY.lastIndex = offset;
  const match = ENTITY.exec(text);
  if (!match) return undefined;
  const body = match[1]!;
  let value: string | undefined;
  if (body.startsWith('#')) {
    const codePoint =
      body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
    if (codePoint > 0 && codePoint <= 0x10ffff) value = String.fromCodePoint(codePoint);
  } else {
    value = NAMED_ENTITIES.get(body.toLowerCase());
  }
  return value === undefined ? undefined : { value, length: match[0].length };
}

/** The longest fold ('…' → '...') triples a code unit. */
const MAX_EXPANSION = 3;

export function normalizeText(text: string): NormalizedText {
  const capacity = text.length * MAX_EXPANSION;
  const codes = new Uint16Array(capacity);
  const starts = new Int32Array(capacity);
  const ends = new Int32Array(capacity);
  let length = 0;
  let inWhitespace = false;

  const push = (code: number, from: number, to: number): void => {
    codes[length] = code;
    starts[length] = from;
    ends[length] = to;
    length++;
  };
  const emit = (code: number, from: number, to: number): void => {
    if (REMOVED.has(code)) return;
    if (isUnicodeSpace(code)) {
      if (inWhitespace) ends[length - 1] = to;
      else push(0x20, from, to);
      inWhitespace = true;
      return;
    }
    inWhitespace = false;
    const folded = FOLDED.get(code);
    if (folded === undefined) push(code, from, to);
    else for (let f = 0; f < folded.length; f++) push(folded.charCodeAt(f), from, to);
  };

  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code > 0x20 && code < 0x80 && code !== 0x26) {
      // Plain printable ASCII other than '&' is kept as is.
      inWhitespace = false;
      push(code, i, i + 1);
      i++;
      continue;
    }
    const entity = code === 0x26 ? entityAt(text, i) : undefined;
    if (entity) {
      for (let k = 0; k < entity.value.length; k++) emit(entity.value.charCodeAt(k), i, i + entity.length);
      i += entity.length;
      continue;
    }
    emit(code, i, i + 1);
    i++;
  }

  let normalized = '';
  const CHUNK = 8192;
  for (let k = 0; k < length; k += CHUNK) {
    normalized += String.fromCharCode(...codes.subarray(k, Math.min(length, k + CHUNK)));
  }
  return {
    text: normalized,
    starts: starts.slice(0, length),
    ends: ends.slice(0, length),
    originalLength: text.length,
  };
}

/** Maps a normalised [start, end) back to the original text. */
export function toOriginalRange(
  normalized: NormalizedText,
  start: number,
  end: number,
): { start: number; end: number } {
  const length = normalized.text.length;
  const originalStart = start < length ? normalized.starts[start]! : normalized.originalLength;
  if (end <= start) return { start: originalStart, end: originalStart };
  return { start: originalStart, end: normalized.ends[end - 1]! };
}

/** The normalised offset of the first normalised unit at or after an original offset. */
export function toNormalizedOffset(normalized: NormalizedText, offset: number): number {
  return lowerBound(normalized.starts, offset);
}
