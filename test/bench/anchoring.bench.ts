// Anchoring benchmark: 500 highlights on a ~100 KB mixed Latin/CJK article.
// Run: npm run bench:anchoring   (node test/bench/anchoring.bench.ts)
import { anchorAll, describeRange, type HighlightSelectors } from '../../src/anchoring/index.ts';

const BUDGET_MS = 100;
const RUNS = 15;
const HIGHLIGHTS = 500;

/** Deterministic pseudo-random numbers so every run measures the same work. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const LATIN = (
  'reading margin highlight note the of and a page text moves with its daily folder clip archive ' +
  'search title author link quiet river mountain evening library window question answer story'
).split(' ');
const CJK = ['東京', '文章', 'です', '大阪', '都市', '読書', '記録', '時間', '静か', '言葉', '物語'];

function buildArticle(next: () => number): string {
  const paragraphs: string[] = [];
  let length = 0;
  while (length < 100_000) {
    const cjk = next() < 0.25;
    const words: string[] = [];
    const count = 40 + Math.floor(next() * 60);
    for (let i = 0; i < count; i++) {
      const pool = cjk ? CJK : LATIN;
      words.push(pool[Math.floor(next() * pool.length)]!);
    }
    const paragraph = cjk ? `${words.join('')}。` : `${words.join(' ')}.`;
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join('\n\n');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function time(label: string, work: () => unknown): { p50: number; p95: number } {
  work(); // warm-up
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    work();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const figures = { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
  console.log(
    `${label.padEnd(44)} p50 ${figures.p50.toFixed(2).padStart(7)} ms   p95 ${figures.p95.toFixed(2).padStart(7)} ms`,
  );
  return figures;
}

const next = random(42);
const article = buildArticle(next);
const ranges: [number, number][] = [];
for (let i = 0; i < HIGHLIGHTS; i++) {
  const start = Math.floor(next() * (article.length - 300));
  ranges.push([start, start + 10 + Math.floor(next() * 200)]);
}
ranges.sort((a, b) => a[0] - b[0]);

let highlights: HighlightSelectors[] = [];
time('describe 500 highlights', () => {
  highlights = ranges.map(([start, end]) => describeRange(article, start, end));
});

const unchanged = time('anchor 500, text unchanged', () => anchorAll(article, highlights));

const insertedAtTop = `A new introduction paragraph was added by the site.\n\n新しい段落です。\n\n${article}`;
const topInsert = time('anchor 500, insertions at the top', () => anchorAll(insertedAtTop, highlights));

// Insertions at the top, a word inserted inside every 10th highlight, whitespace changed in every 25th.
let edited = insertedAtTop;
const shift = insertedAtTop.length - article.length;
for (let i = highlights.length - 1; i >= 0; i--) {
  const { start, end } = highlights[i]!.position;
  if (i % 10 === 0) {
    const middle = shift + Math.floor((start + end) / 2);
    edited = `${edited.slice(0, middle)} inserted ${edited.slice(middle)}`;
  } else if (i % 25 === 1) {
    edited = `${edited.slice(0, shift + start)}\u00a0 ${edited.slice(shift + start)}`;
  }
}
let results = anchorAll(edited, highlights);
const withEdits = time('anchor 500, top insertions + edits inside', () => {
  results = anchorAll(edited, highlights);
});

// The worst case, outside the budget: the article's paragraphs in another order, so every
// highlight moved on its own and is searched for in the whole text (and those that spanned two
// paragraphs go through the fuzzy search there).
const shuffled = article
  .split('\n\n')
  .map((paragraph, i) => ({ paragraph, key: (i * 7919) % 1009 }))
  .sort((a, b) => a.key - b.key)
  .map(({ paragraph }) => paragraph)
  .join('\n\n');
time('anchor 500, paragraphs reordered (worst case)', () => anchorAll(shuffled, highlights));

const statuses = new Map<string, number>();
for (const result of results) statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
console.log(
  `\narticle ${article.length} code units, ${HIGHLIGHTS} highlights, ${RUNS} runs each (after warm-up)`,
);
console.log(`after edits: ${[...statuses].map(([status, count]) => `${status} ${count}`).join(', ')}`);
console.log(`budget: anchoring 500 highlights < ${BUDGET_MS} ms (p95), the worst case aside`);
const overBudget = [unchanged, topInsert, withEdits].some((figures) => figures.p95 > BUDGET_MS);
console.log(overBudget ? 'OVER BUDGET' : 'within budget');
process.exitCode = overBudget ? 1 : 0;
