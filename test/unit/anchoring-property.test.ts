import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bestMatch, compilePattern } from '../../src/anchoring/edit-distance.ts';
import { anchor, anchorAll, describeRange, normalizeText } from '../../src/anchoring/index.ts';

/** Similar text: at most a quarter of the quote changed, or one character of a 2–3 character one. */
function minSimilarity(quote: string): number {
  const length = normalizeText(quote).text.length;
  return length < 4 ? 1 - 1 / length : 0.75;
}
/** ANCHORING_RUNS=<n> raises the run count for a longer local soak. */
const runs = (usual: number): number => Number(process.env.ANCHORING_RUNS ?? usual);

/** Plain dynamic-programming Levenshtein distance: the oracle the fast matcher is checked against. */
function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function similarity(a: string, b: string): number {
  const left = normalizeText(a).text;
  const right = normalizeText(b).text;
  return 1 - levenshtein(left, right) / Math.max(1, right.length);
}

const WORDS = [
  'margin',
  'reader',
  'highlight',
  'quote',
  'the',
  'of',
  'and',
  'page',
  'text',
  'moves',
  'with',
  'its',
  'note',
  'daily',
  'folder',
  '東京',
  '文章',
  'です。',
  'café',
  'naïve',
  'résumé',
  'über',
  'déjà',
  'vu',
  'clip',
  'archive',
  'search',
  'title',
  'author',
  'link',
];
const SEPARATORS = [' ', ' ', ' ', ', ', '. ', '\n\n', '\u00a0'];

const textArbitrary = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), {
    minLength: 20,
    maxLength: 120,
  })
  .map((parts) => parts.map(([word, separator]) => word + separator).join(''));

const snippet = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.string({ minLength: 1, maxLength: 6 }),
  fc.constantFrom(' ', '  ', '\u00a0', 'x'),
);

type Edit = { kind: 'insert' | 'delete' | 'replace'; at: number; length: number; value: string };
const editArbitrary: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('insert', 'delete', 'replace'),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  length: fc.integer({ min: 1, max: 12 }),
  value: snippet,
});

function applyEdit(text: string, edit: Edit): string {
  const at = Math.floor(edit.at * text.length);
  if (edit.kind === 'insert') return text.slice(0, at) + edit.value + text.slice(at);
  if (edit.kind === 'delete') return text.slice(0, at) + text.slice(at + edit.length);
  return text.slice(0, at) + edit.value + text.slice(at + edit.length);
}

const highlightArbitrary = fc.tuple(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.integer({ min: 1, max: 80 }),
);

function rangeIn(text: string, [where, length]: [number, number]): [number, number] {
  const start = Math.floor(where * (text.length - 1));
  return [start, Math.min(text.length, start + length)];
}

describe('anchoring properties', () => {
  test('unchanged text always anchors every highlight at its own position', () => {
    fc.assert(
      fc.property(
        textArbitrary,
        fc.array(highlightArbitrary, { minLength: 1, maxLength: 20 }),
        (text, ranges) => {
          const list = ranges.map((range) => describeRange(text, ...rangeIn(text, range)));
          anchorAll(text, list).forEach((result, i) => {
            const { position } = list[i]!;
            expect(result).toEqual({
              status: 'exact-position',
              start: position.start,
              end: position.end,
              score: 1,
            });
          });
        },
      ),
      { numRuns: runs(300) },
    );
  });

  test('random edits never lose a highlight silently: placed on similar text, or detached', () => {
    fc.assert(
      fc.property(
        textArbitrary,
        fc.array(highlightArbitrary, { minLength: 1, maxLength: 10 }),
        fc.array(editArbitrary, { minLength: 1, maxLength: 8 }),
        (text, ranges, edits) => {
          const list = ranges.map((range) => describeRange(text, ...rangeIn(text, range)));
          const edited = edits.reduce(applyEdit, text);
          const results = anchorAll(edited, list);
          expect(results).toHaveLength(list.length);
          results.forEach((result, i) => {
            if (result.status === 'detached') return;
            expect(result.start).toBeGreaterThanOrEqual(0);
            expect(result.end).toBeLessThanOrEqual(edited.length);
            expect(result.end).toBeGreaterThan(result.start);
            expect(result.score).toBeGreaterThan(0);
            expect(result.score).toBeLessThanOrEqual(1);
            const found = edited.slice(result.start, result.end);
            const { exact } = list[i]!.quote;
            expect(similarity(found, exact)).toBeGreaterThanOrEqual(minSimilarity(exact) - 1e-9);
          });
        },
      ),
      { numRuns: runs(400) },
    );
  });

  test('edits away from a highlight and its context move it to exactly its own text', () => {
    fc.assert(
      fc.property(
        textArbitrary,
        highlightArbitrary,
        fc.array(editArbitrary, { minLength: 1, maxLength: 6 }),
        (text, range, edits) => {
          const selectors = describeRange(text, ...rangeIn(text, range));
          const { prefix, exact, suffix } = selectors.quote;
          // Edits land only before the prefix or after the suffix; the highlight keeps its place.
          // An empty side is the page's edge (the quote began or ended it): that context is the
          // edge itself, which text added beyond it would change.
          const before = text.slice(0, selectors.position.start - prefix.length);
          const after = text.slice(selectors.position.end + suffix.length);
          const half = Math.ceil(edits.length / 2);
          const editedBefore = prefix ? edits.slice(0, half).reduce(applyEdit, before) : before;
          const editedAfter = suffix ? edits.slice(half).reduce(applyEdit, after) : after;
          const window = prefix + exact + suffix;
          const edited = editedBefore + window + editedAfter;
          fc.pre(edited.indexOf(window) === edited.lastIndexOf(window));
          const result = anchor(edited, selectors);
          expect(result).toMatchObject({
            start: editedBefore.length + prefix.length,
            end: editedBefore.length + prefix.length + exact.length,
          });
          expect(result.status).not.toBe('fuzzy');
        },
      ),
      { numRuns: runs(300) },
    );
  });

  test('the bit-parallel matcher agrees with dynamic programming', () => {
    const alphabet = fc.constantFrom('a', 'b', 'c', 'd', ' ', '東', '😀');
    const stringOf = (maxLength: number) =>
      fc.array(alphabet, { minLength: 1, maxLength }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(stringOf(45), stringOf(80), (pattern, text) => {
        // Anchored backward from the end: exact Levenshtein distance to each suffix of the text.
        const anchored = bestMatch(compilePattern(pattern, true), text, 0, text.length, {
          backward: true,
          anchored: true,
        });
        let best = pattern.length;
        for (let start = 0; start <= text.length; start++) {
          best = Math.min(best, levenshtein(pattern, text.slice(start)));
        }
        expect(anchored.distance).toBe(best);
        expect(levenshtein(pattern, text.slice(anchored.offset))).toBe(best);
        // Free forward search: best substring anywhere.
        const free = bestMatch(compilePattern(pattern), text, 0, text.length);
        let bestAnywhere = pattern.length;
        for (let end = 1; end <= text.length; end++) {
          for (let start = 0; start < end; start++) {
            bestAnywhere = Math.min(bestAnywhere, levenshtein(pattern, text.slice(start, end)));
          }
        }
        expect(free.distance).toBe(bestAnywhere);
      }),
      { numRuns: runs(150) },
    );
  });
});
