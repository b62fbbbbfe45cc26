// Re-anchoring after the edits pages really go through, on random Latin, CJK and mixed pages:
// a highlight is placed where its text now is, or reported lost; almost never somewhere else.
// `npm run bench:anchoring-edits` prints the full table, on these pages and on real articles.
import { describe, expect, test } from 'vitest';
import { EDIT_KINDS, formatTallies, randomPage, tallyEditKind } from '../helpers/anchoring-edits.ts';
import { prng } from '../helpers/prng.ts';

const CASES_PER_KIND = 600;
const SCRIPTS = ['latin', 'cjk', 'mixed'] as const;

describe('re-anchoring after typical edits', () => {
  const tallies = EDIT_KINDS.map((kind, k) => {
    const random = prng(1_000 + k);
    return tallyEditKind(kind, CASES_PER_KIND, random, (i) =>
      randomPage(random, SCRIPTS[i % SCRIPTS.length]!),
    );
  });

  test.each(tallies.map((tally) => [tally.kind, tally] as const))(
    '%s: at most 0.5%% placed wrong, at least 99%% right where the quote survives',
    (_, tally) => {
      expect(tally.cases).toBe(CASES_PER_KIND);
      expect(tally.wrong / tally.cases).toBeLessThanOrEqual(0.005);
      if (tally.surviving > 0) expect(tally.survivingCorrect / tally.surviving).toBeGreaterThanOrEqual(0.99);
    },
  );

  test('the harness tells the three outcomes apart', () => {
    const kinds = Object.fromEntries(tallies.map((tally) => [tally.kind, tally]));
    // A deleted quote has nowhere right to go; an untouched one always does.
    expect(kinds['quote-deleted']!.surviving).toBe(0);
    expect(kinds['quote-deleted']!.correct).toBeGreaterThan(0);
    expect(kinds['paragraph-inserted']!.surviving).toBe(CASES_PER_KIND);
    // A replaced word in a short quote leaves it lost: orphans are counted, not hidden.
    expect(kinds['word-changed']!.orphaned).toBeGreaterThan(0);
    console.log(formatTallies(tallies));
  });
});
