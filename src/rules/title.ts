/** Marker for an empty title; the UI translates it ("No title"). */
export const NO_TITLE = 'No title';

/**
 * Control characters (category Cc) other than whitespace; tab, newline and friends become spaces
 * through \s below.
 */
const CONTROL_CHARS = /(?![\t\n\v\f\r\u0085])\p{Cc}/gu;
/**
 * Invisible characters: zero-width space, word joiner, BOM, soft hyphen, Mongolian vowel
 * separator and bidirectional controls. ZWJ and ZWNJ (U+200C/U+200D) stay: they build emoji
 * sequences and are spelling in Persian and Indic scripts.
 */
const INVISIBLE_CHARS = /[\u200B\u2060\uFEFF\u00AD\u180E\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
/** Decorative symbols that page titles use as ornaments or site separators. */
const DECORATIVE_SYMBOLS = /[★☆✩✪✫✬✭✮✯✰►▶▷◀◁◄▲△▼▽◆◇■□▪▫●○◎◉◦※|¦‖♦♢♠♣♥♡♪♫✓✔✕✖✗✘❤❥➤➔➜➢⇒⇐→←↑↓]/g;
/** Separator characters stripped from the ends of a title when they stand apart or repeat. */
const SEP = '\\-–—_=~•·/\\\\:;,';
const LEADING_SEPARATORS = new RegExp(`^(?:[${SEP}]{2,}|[${SEP}]+(?=\\s|$))\\s*`);
const TRAILING_SEPARATORS = new RegExp(`\\s*(?:[${SEP}]{2,}|(?<=\\s|^)[${SEP}]+)$`);

/**
 * A title with whitespace collapsed and special punctuation removed (control and invisible
 * characters, decorative symbols, separator runs at the ends). Ordinary punctuation, CJK
 * punctuation and emoji stay. Returns '' when nothing is left.
 */
export function cleanTitle(raw: string | null | undefined): string {
  if (!raw) return '';
  let title = raw
    .normalize('NFC')
    .replace(CONTROL_CHARS, '')
    .replace(INVISIBLE_CHARS, '')
    .replace(DECORATIVE_SYMBOLS, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  let previous: string;
  do {
    previous = title;
    title = title.replace(LEADING_SEPARATORS, '').replace(TRAILING_SEPARATORS, '');
  } while (title !== previous);
  return title;
}

/** `cleanTitle`, with an empty result shown as NO_TITLE. */
export function normalizeTitle(raw: string | null | undefined): string {
  return cleanTitle(raw) || NO_TITLE;
}
