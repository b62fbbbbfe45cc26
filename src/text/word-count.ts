// CJK scripts are written without spaces between words, so each Han, Kana or Hangul character
// counts as one word; every other run of letters or digits between separators counts as one word.
const CJK_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const WORD = /[\p{L}\p{N}\p{M}]+(?:['’_.-][\p{L}\p{N}\p{M}]+)*/gu;

export function countWords(text: string): number {
  let cjkCharacters = 0;
  const withoutCjk = text.replace(CJK_CHARACTER, () => {
    cjkCharacters += 1;
    return ' ';
  });
  let otherWords = 0;
  for (const _ of withoutCjk.matchAll(WORD)) otherWords += 1;
  return cjkCharacters + otherWords;
}
