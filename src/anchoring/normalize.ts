// Text normalisation for the fuzzy path: differences a re-parse introduces without changing what
// the reader sees (whitespace runs, NBSP, typographic quotes and dashes, leftover HTML entities,
// zero-width characters) are folded away, and every normalised code unit remembers the original
// range it came from so matches map back to the page text.

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

function isWhitespace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

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

export function normalizeText(text: string): NormalizedText {
  const codes: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let inWhitespace = false;

  const emit = (value: string, from: number, to: number): void => {
    for (let k = 0; k < value.length; k++) {
      const code = value.charCodeAt(k);
      if (REMOVED.has(code)) continue;
      if (isWhitespace(code)) {
        if (inWhitespace) {
          ends[ends.length - 1] = to;
          continue;
        }
        inWhitespace = true;
        codes.push(0x20);
      } else {
        inWhitespace = false;
        const folded = FOLDED.get(code);
        if (folded !== undefined) {
          for (let f = 0; f < folded.length; f++) {
            codes.push(folded.charCodeAt(f));
            starts.push(from);
            ends.push(to);
          }
          continue;
        }
        codes.push(code);
      }
      starts.push(from);
      ends.push(to);
    }
  };

  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x26) {
      const entity = entityAt(text, i);
      if (entity) {
        emit(entity.value, i, i + entity.length);
        i += entity.length;
        continue;
      }
    }
    if (code < 0x80 && code !== 0x20 && !(code >= 0x09 && code <= 0x0d)) {
      // Fast path for plain ASCII.
      inWhitespace = false;
      codes.push(code);
      starts.push(i);
      ends.push(i + 1);
    } else {
      emit(text[i]!, i, i + 1);
    }
    i++;
  }

  let normalized = '';
  const CHUNK = 8192;
  for (let k = 0; k < codes.length; k += CHUNK) {
    normalized += String.fromCharCode(...codes.slice(k, k + CHUNK));
  }
  return {
    text: normalized,
    starts: Int32Array.from(starts),
    ends: Int32Array.from(ends),
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
  let low = 0;
  let high = normalized.starts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (normalized.starts[middle]! < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}
