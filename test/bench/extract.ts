// Extraction benchmark:
//   npm run bench:extract -- --html-dir DIR --out FILE [--compare] [--rounds N] [--stages]
//     [--truth GROUND_TRUTH.json [--worst N]]
// Writes { "<file id>": { "articleBody": "…" } } for the score-extraction.py scorer and prints
// time per page (p50, p95 over the pages) for each of N rounds (default 3).
// --compare also runs plain Readability on linkedom (output in FILE.readability-linkedom.json)
// interleaved with ours page by page, the one going first alternating by page and round, so that
// both see the same machine load; the ratio of the two p50s in the same round is the figure to
// report. On a busy machine the best of the N rounds per page (its fastest time) is the steadier
// figure, and is printed last. Then plain Readability on jsdom runs on its own
// (FILE.readability.json).
// --stages prints where our extractor spends its time, per stage, over N more passes.
// --truth scores the first round's output by the corpus's metric (./shingle-score.ts) and prints
// F1, precision and recall, and the N worst pages (default 15) with their own precision and recall.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import { parseHTML } from 'linkedom';
import { decodeHtml } from '../../server/domain/clip/decode.ts';
import { extractArticle } from '../../server/domain/clip/extract/index.ts';
import { corpusScore, type PageScore, scorePage } from './shingle-score.ts';

type Article = { id: string; html: string; url: string };
type Extractor = (page: Article) => string;
type Output = Record<string, { articleBody: string }>;
/** Per page, in page order: wall time and the process's CPU time (less swayed by other load), ms. */
type Run = { timings: number[]; cpuTimes: number[]; output: Output };

const HTML_FILE = /\.html(\.gz)?$/;
const FALLBACK_URL = 'https://example.invalid/';

function pageUrl(html: string): string {
  const canonical =
    html.match(/<link[^>]+rel=["']?canonical["']?[^>]*href=["']([^"']+)["']/i)?.[1] ??
    html.match(/<meta[^>]+property=["']og:url["'][^>]*content=["']([^"']+)["']/i)?.[1];
  try {
    return new URL(canonical ?? FALLBACK_URL).href;
  } catch {
    return FALLBACK_URL;
  }
}

function loadArticles(directory: string): Article[] {
  return readdirSync(directory)
    .filter((name) => HTML_FILE.test(name))
    .sort()
    .map((name) => {
      const raw = readFileSync(join(directory, name));
      const html = decodeHtml(name.endsWith('.gz') ? gunzipSync(raw) : raw, null);
      return { id: name.replace(HTML_FILE, ''), html, url: pageUrl(html) };
    });
}

const quietConsole = new VirtualConsole();

const ours: Extractor = (page) => extractArticle(page.html, page.url).text;
const readabilityOnLinkedom: Extractor = (page) => {
  const { document } = parseHTML(page.html) as unknown as { document: Document };
  return new Readability(document).parse()?.textContent ?? '';
};
const readabilityOnJsdom: Extractor = (page) => {
  const { document } = new JSDOM(page.html, { url: page.url, virtualConsole: quietConsole }).window;
  return new Readability(document).parse()?.textContent ?? '';
};

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

function newRun(): Run {
  return { timings: [], cpuTimes: [], output: {} };
}

function timePage(name: string, extract: Extractor, page: Article, into: Run): void {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let articleBody = '';
  try {
    articleBody = extract(page);
  } catch (error) {
    console.error(`${name}: ${page.id} failed: ${(error as Error).message}`);
  }
  const cpu = process.cpuUsage(cpuStart);
  into.timings.push(performance.now() - start);
  into.cpuTimes.push((cpu.user + cpu.system) / 1000);
  into.output[page.id] = { articleBody };
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

function summary(name: string, run: Run): string {
  const total = run.timings.reduce((sum, time) => sum + time, 0) / 1000;
  return (
    `${name} p50=${ms(percentile(run.timings, 0.5))} p95=${ms(percentile(run.timings, 0.95))} ` +
    `cpu p50=${ms(percentile(run.cpuTimes, 0.5))} pages/s=${(run.timings.length / total).toFixed(1)}`
  );
}

function writeOutput(file: string, run: Run): void {
  writeFileSync(file, `${JSON.stringify(run.output, null, 1)}\n`);
}

/** Per stage, the time of each page: the fastest of `rounds` runs, 0 where the page skips it. */
function printStages(pages: Article[], rounds: number): void {
  const perStage = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    pages.forEach((page, index) => {
      const times = new Map<string, number>();
      extractArticle(page.html, page.url, (stage, time) => times.set(stage, (times.get(stage) ?? 0) + time));
      for (const [stage, time] of times) {
        if (!perStage.has(stage))
          perStage.set(stage, Array<number>(pages.length).fill(Number.POSITIVE_INFINITY));
        const best = perStage.get(stage) as number[];
        best[index] = Math.min(best[index] ?? time, time);
      }
    });
  }
  const totals = [...perStage].map(([stage, best]) => {
    const times = best.map((time) => (Number.isFinite(time) ? time : 0));
    return { stage, times, total: times.reduce((sum, time) => sum + time, 0) };
  });
  const all = totals.reduce((sum, { total }) => sum + total, 0);
  console.log(`\nstage (best of ${rounds} per page) total      share  p50/page  p95/page`);
  for (const { stage, times, total } of totals) {
    console.log(
      `${stage.padEnd(27)} ${ms(total).padStart(10)} ${`${((total / all) * 100).toFixed(1)}%`.padStart(6)}` +
        ` ${ms(percentile(times, 0.5)).padStart(9)} ${ms(percentile(times, 0.95)).padStart(9)}`,
    );
  }
  console.log(`${'all'.padEnd(27)} ${ms(all).padStart(10)}`);
}

type GroundTruth = Record<string, { articleBody?: string; url?: string }>;

function printScores(truthFile: string, output: Output, worst: number): void {
  const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as GroundTruth;
  const pages = Object.entries(truth).map(([id, { articleBody }]) =>
    scorePage(id, articleBody ?? '', output[id]?.articleBody ?? ''),
  );
  const { precision, recall, f1 } = corpusScore(pages);
  const figure = (value: number | null): string => (value === null ? '  -  ' : value.toFixed(3));
  console.log(
    `\nF1=${figure(f1)} precision=${figure(precision)} recall=${figure(recall)} over ${pages.length} pages`,
  );
  const lowest = (page: PageScore): number => Math.min(page.precision ?? 1, page.recall ?? 1);
  console.log(`worst ${worst} pages (P, R, url):`);
  for (const page of [...pages].sort((a, b) => lowest(a) - lowest(b)).slice(0, worst))
    console.log(
      `  ${figure(page.precision)} ${figure(page.recall)} ${page.id.slice(0, 12)} ${truth[page.id]?.url ?? ''}`,
    );
}

const { values } = parseArgs({
  options: {
    'html-dir': { type: 'string' },
    out: { type: 'string' },
    compare: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
    stages: { type: 'boolean', default: false },
    truth: { type: 'string' },
    worst: { type: 'string', default: '15' },
  },
});
const htmlDir = values['html-dir'];
const out = values.out;
const rounds = Number(values.rounds);
if (!htmlDir || !out || !(rounds >= 1)) {
  console.error(
    'usage: npm run bench:extract -- --html-dir DIR --out FILE [--compare] [--rounds N] [--stages] [--truth FILE [--worst N]]',
  );
  process.exit(2);
}
const outBase = out.replace(/\.json$/, '');
const pages = loadArticles(htmlDir);
// Warm-up so the first pages do not carry module compilation and JIT start-up.
for (const page of pages.slice(0, 5)) {
  ours(page);
  if (values.compare) readabilityOnLinkedom(page);
}
console.log(
  `${pages.length} pages, ${rounds} rounds${values.compare ? ', ours and Readability-on-linkedom interleaved' : ''}`,
);
const ratios: number[] = [];
const ourBest = newRun();
const readabilityBest = newRun();
const keepBest = (best: Run, run: Run): void => {
  best.timings = run.timings.map((time, page) => Math.min(time, best.timings[page] ?? time));
  best.cpuTimes = run.cpuTimes.map((time, page) => Math.min(time, best.cpuTimes[page] ?? time));
};
for (let round = 0; round < rounds; round++) {
  const ourRun = newRun();
  const readabilityRun = newRun();
  pages.forEach((page, index) => {
    const oursFirst = (index + round) % 2 === 0;
    if (oursFirst) timePage('ours', ours, page, ourRun);
    if (values.compare) timePage('readability-linkedom', readabilityOnLinkedom, page, readabilityRun);
    if (!oursFirst) timePage('ours', ours, page, ourRun);
  });
  let line = `round ${round + 1}: ${summary('ours', ourRun)}`;
  if (values.compare) {
    const ratio = percentile(ourRun.timings, 0.5) / percentile(readabilityRun.timings, 0.5);
    ratios.push(ratio);
    line += ` | ${summary('readability-linkedom', readabilityRun)} | p50 ratio=${ratio.toFixed(2)}`;
  }
  console.log(line);
  keepBest(ourBest, ourRun);
  keepBest(readabilityBest, readabilityRun);
  if (round === 0) {
    writeOutput(out, ourRun);
    if (values.truth) printScores(values.truth, ourRun.output, Number(values.worst));
    if (values.compare) writeOutput(`${outBase}.readability-linkedom.json`, readabilityRun);
  }
}
if (values.compare) {
  console.log(
    `median p50 ratio ours / readability-linkedom over ${rounds} rounds: ${percentile(ratios, 0.5).toFixed(2)}`,
  );
  const ratio = percentile(ourBest.timings, 0.5) / percentile(readabilityBest.timings, 0.5);
  const perPage = ourBest.timings.map((time, page) => time / (readabilityBest.timings[page] ?? time));
  const cpuRatio = percentile(ourBest.cpuTimes, 0.5) / percentile(readabilityBest.cpuTimes, 0.5);
  console.log(
    `best of ${rounds} rounds per page: ${summary('ours', ourBest)} | ${summary('readability-linkedom', readabilityBest)}` +
      ` | p50 ratio=${ratio.toFixed(2)}, median per-page ratio=${percentile(perPage, 0.5).toFixed(2)},` +
      ` cpu p50 ratio=${cpuRatio.toFixed(2)}`,
  );
}
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`;
console.log(`peak rss=${mb(process.resourceUsage().maxRSS * 1024)} (process-wide) -> ${out}`);
if (values.stages) printStages(pages, rounds);
if (values.compare) {
  // Last and on its own: jsdom leaves a large heap behind that would slow whatever runs after it.
  const jsdomRun = newRun();
  for (const page of pages) timePage('readability-jsdom', readabilityOnJsdom, page, jsdomRun);
  writeOutput(`${outBase}.readability.json`, jsdomRun);
  console.log(summary('readability-jsdom', jsdomRun));
}
