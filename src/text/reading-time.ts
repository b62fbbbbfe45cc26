// How long a text takes to read. Han and Kana are written without spaces between words, so they
// are counted by characters; every other script by words, which the word segmenter also finds
// where they are not spaced (Thai, Lao, Khmer, Myanmar). Korean spaces its words.

export const CJK_CHARACTERS_PER_MINUTE = 450;
export const WORDS_PER_MINUTE = 230;

const CHARACTER_COUNTED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;

let segmenter: Intl.Segmenter | undefined;

export interface ReadingLength {
  /** Han and Kana characters. */
  characters: number;
  /** Words of every other script. */
  words: number;
}

export function readingLength(text: string): ReadingLength {
  let characters = 0;
  const rest = text.replace(CHARACTER_COUNTED, () => {
    characters += 1;
    return ' ';
  });
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  let words = 0;
  for (const segment of segmenter.segment(rest)) if (segment.isWordLike) words += 1;
  return { characters, words };
}

/** Whole minutes to read `text`: at least 1 for any text, 0 for none. */
export function readingMinutes(text: string): number {
  const { characters, words } = readingLength(text);
  if (!characters && !words) return 0;
  return Math.max(1, Math.round(characters / CJK_CHARACTERS_PER_MINUTE + words / WORDS_PER_MINUTE));
}
