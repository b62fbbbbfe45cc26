// A one-character typo inside a highlighted quote: the highlight covers the typed text, edges and
// all, or is reported lost; it is never left on part of it or put on another copy.
// `npm run bench:anchoring-typos` prints the full table, on generated pages and real articles.
import { describe, expect, test } from 'vitest';
import { type AnchorResult, anchor, describeRange } from '../../src/anchoring/index.ts';
import { randomPage } from '../helpers/anchoring-edits.ts';
import { formatTypoTallies, tallyTypos } from '../helpers/anchoring-typos.ts';
import { prng } from '../helpers/prng.ts';

const LATIN =
  'The river ran past the old mill every spring. We walked along it at dawn and counted the stones. ' +
  'A quiet morning is the best time to read a long letter from a friend.';
const CJK = '我们每天早上在图书馆阅读笔记。老师说学习需要耐心和好奇。晚上我们在花园里写作。';

/** The selectors of `phrase` in `text`, and `text` with the phrase replaced by `typed`. */
function typo(text: string, phrase: string, typed: string, occurrence = 0) {
  let start = -1;
  for (let i = 0; i <= occurrence; i++) start = text.indexOf(phrase, start + 1);
  if (start === -1) throw new Error(`phrase not in text: ${phrase}`);
  const selectors = describeRange(text, start, start + phrase.length);
  const edited = text.slice(0, start) + typed + text.slice(start + phrase.length);
  return { selectors, edited, start };
}

function placedText(text: string, result: AnchorResult): string {
  if (result.status === 'detached') throw new Error('expected the highlight to be placed');
  return text.slice(result.start, result.end);
}

describe('a typo at the quote’s first character', () => {
  test.each([
    ['inserted before it', 'mill', 'smill'],
    ['substituted', 'mill', 'bill'],
    ['deleted', 'mill', 'ill'],
    ['inserted before a CJK quote', '阅读', '在阅读'],
    ['substituted in a CJK quote', '阅读', '悦读'],
  ])('%s: the highlight covers the typed text', (_, phrase, typed) => {
    const text = phrase.length === 2 && /\p{Script=Han}/u.test(phrase) ? CJK : LATIN;
    const { selectors, edited, start } = typo(text, phrase, typed);
    const result = anchor(edited, selectors);
    expect(placedText(edited, result)).toBe(typed);
    expect(result).toMatchObject({ start, status: 'fuzzy' });
  });
});

describe('a typo at the quote’s last character', () => {
  test.each([
    ['inserted after it', 'stones', 'stonesx'],
    ['substituted', 'stones', 'stoner'],
    ['deleted', 'stones', 'stone'],
    ['inserted after a CJK quote', '耐心', '耐心的'],
    ['deleted from a CJK quote', '好奇', '好'],
  ])('%s: the highlight covers the typed text', (_, phrase, typed) => {
    const text = /\p{Script=Han}/u.test(phrase) ? CJK : LATIN;
    const { selectors, edited } = typo(text, phrase, typed);
    expect(placedText(edited, anchor(edited, selectors))).toBe(typed);
  });

  test('a character deleted next to a space leaves the space out of the highlight', () => {
    const { selectors, edited } = typo(LATIN, 'a long', 'a lon');
    expect(placedText(edited, anchor(edited, selectors))).toBe('a lon');
    const first = typo(LATIN, 'A quiet', ' quiet');
    expect(placedText(first.edited, anchor(first.edited, first.selectors))).toBe('quiet');
  });
});

describe('tiny quotes', () => {
  test('a one-character quote whose character changed moves to the new one between its context', () => {
    const { selectors, edited, start } = typo(LATIN, 'A', 'O');
    expect(anchor(edited, selectors)).toMatchObject({ start, end: start + 1, status: 'fuzzy' });
  });

  test('a character typed after a one-character CJK quote is part of the highlight', () => {
    const { selectors, edited } = typo(CJK, '说', '说了');
    expect(placedText(edited, anchor(edited, selectors))).toBe('说了');
  });

  test('a two-letter word with a letter typed inside it', () => {
    const { selectors, edited } = typo(LATIN, 'at', 'art');
    expect(placedText(edited, anchor(edited, selectors))).toBe('art');
  });

  test('a short quote whose context changed as well is reported lost, not put on another copy', () => {
    const { selectors } = typo(LATIN, 'the', 'the');
    const start = selectors.position.start;
    const edited = `${LATIN.slice(0, start - 6)}xxxxx thx stuff${LATIN.slice(start + 12)}`;
    expect(anchor(edited, selectors).status).toBe('detached');
  });
});

describe('repeated text', () => {
  const paragraph = 'Every section repeats this sentence about the river and the mill, word for word.';
  const page = [1, 2, 3]
    .map((n) => `Section ${n} opens here with its own words.\n\n${paragraph}`)
    .join('\n\n');

  test('a typo in the highlighted copy keeps it on that copy, not on an intact one', () => {
    const { selectors, edited, start } = typo(page, 'river', 'rivers', 1);
    const result = anchor(edited, selectors);
    expect(result).toMatchObject({ start, end: start + 'rivers'.length });
  });

  test('a typo in another copy leaves the highlight where it was', () => {
    const own = typo(page, 'river', 'river', 1);
    const other = typo(page, 'river', 'rivr', 2);
    expect(anchor(other.edited, own.selectors)).toMatchObject({
      status: 'exact-position',
      start: own.start,
    });
  });
});

describe('typos on generated pages', () => {
  test('at most 0.5 % of highlights are placed anywhere but on their typed text', () => {
    const random = prng(35);
    const scripts = ['latin', 'cjk', 'mixed'] as const;
    const tallies = tallyTypos(1_800, random, (i) => randomPage(random, scripts[i % 3]!));
    console.log(formatTypoTallies(tallies));
    expect(tallies.all.cases).toBe(1_800);
    expect(tallies.all.misplaced / tallies.all.cases).toBeLessThanOrEqual(0.005);
    // Orphans are allowed, but the true range is found nearly always.
    expect(tallies.all.correct / tallies.all.cases).toBeGreaterThanOrEqual(0.99);
  });
});
