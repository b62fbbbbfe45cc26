import { z } from 'zod';

/**
 * Text we can store and send on: no U+0000 (PostgreSQL text and jsonb refuse it) and no lone
 * UTF-16 surrogate (it has no UTF-8 form, so it would be stored as U+FFFD, not as sent).
 */
export const INVALID_CHARACTERS_KEY = 'errors.invalidCharacters';

const NUL = '\u0000';
const REPLACEMENT = '\uFFFD';
/** In a /u regex a surrogate pair is one code point, so only a lone surrogate is category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;
/** isWellFormed and toWellFormed are Node 20+ and 2023 browsers; older browsers use the regex. */
const NATIVE = typeof String.prototype.isWellFormed === 'function';

/** True when `text` has no NUL and no lone surrogate. */
export function isStorableText(text: string): boolean {
  if (text.includes(NUL)) return false;
  return NATIVE ? text.isWellFormed() : !LONE_SURROGATE.test(text);
}

/**
 * Text from outside the user's hands (a fetched page, a URL's decoded path) made storable:
 * NUL and lone surrogates become U+FFFD.
 */
export function toStorableText(text: string): string {
  const withoutNul = text.includes(NUL) ? text.replaceAll(NUL, REPLACEMENT) : text;
  return NATIVE ? withoutNul.toWellFormed() : withoutNul.replace(LONE_SURROGATES, REPLACEMENT);
}

/** `toStorableText`, passing null and undefined through. */
export function toStorableTextOrNull<T extends string | null | undefined>(text: T): T {
  return (typeof text === 'string' ? toStorableText(text) : text) as T;
}

/**
 * The start of every input string schema: a string whose characters can be stored. Chain the
 * rest (`.trim()`, `.min()`, `.max()`, `.regex()`) after it, so an invalid character is the
 * first issue reported. Every input string also needs a `.max()`; the input-schema test walks
 * the router and checks both.
 */
export function zText() {
  return z.string().refine(isStorableText, INVALID_CHARACTERS_KEY);
}
