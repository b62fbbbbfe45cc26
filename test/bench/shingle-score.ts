// The extraction corpus's metric (test/corpus/extraction-dev/README.md; the benchmark's own scorer computes the same):
// precision and recall over 4-word shingles, per page, then averaged over the pages; F1 of the
// averages. The bench uses it to print each page's figures, so that the worst pages are visible.

/** null where the page gives the figure no terms (nothing extracted; nothing to find). */
export type PageScore = { id: string; precision: number | null; recall: number | null };

// Python's \w: letters, digits and the underscore (combining marks end a word).
const WORD = /[\p{L}\p{N}_]+/gu;
const SHINGLE = 4;

function shingles(text: string): Map<string, number> {
  const words = text.match(WORD) ?? [];
  const counts = new Map<string, number>();
  for (let i = 0; i < Math.max(1, words.length - SHINGLE + 1); i++) {
    const shingle = words.slice(i, i + SHINGLE);
    if (!shingle.length) continue;
    const key = shingle.join('\u0000');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export function scorePage(id: string, truth: string, extracted: string): PageScore {
  const expected = shingles(truth);
  const found = shingles(extracted);
  let truePositives = 0;
  let falsePositives = 0;
  for (const [key, count] of found) {
    const wanted = expected.get(key) ?? 0;
    truePositives += Math.min(count, wanted);
    falsePositives += Math.max(0, count - wanted);
  }
  let falseNegatives = 0;
  for (const [key, count] of expected) falseNegatives += Math.max(0, count - (found.get(key) ?? 0));
  return {
    id,
    precision: found.size ? truePositives / (truePositives + falsePositives) : null,
    recall: expected.size ? truePositives / (truePositives + falseNegatives) : null,
  };
}

export function corpusScore(pages: PageScore[]): { precision: number; recall: number; f1: number } {
  const mean = (values: (number | null)[]): number => {
    const given = values.filter((value) => value !== null);
    return given.reduce((sum, value) => sum + value, 0) / given.length;
  };
  const precision = mean(pages.map((page) => page.precision));
  const recall = mean(pages.map((page) => page.recall));
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}
