// Extraction benchmark: `npm run bench:extract -- --html-dir DIR --out FILE [--compare]`.
// Writes { "<file id>": { "articleBody": "…" } } for the score-extraction.py scorer and prints
// time per page, throughput and peak memory. --compare also runs plain Readability on jsdom (output
// in FILE.readability.json) and on linkedom (FILE.readability-linkedom.json).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import { parseHTML } from 'linkedom';
import { decodeHtml } from '../../server/domain/clip/decode.ts';
import { extractArticle } from '../../server/domain/clip/extract/index.ts';

type Article = { id: string; html: string; url: string };
type Extractor = (page: Article) => string;
type Output = Record<string, { articleBody: string }>;

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

const extractors: Record<string, Extractor> = {
  ours: (page) => extractArticle(page.html, page.url).text,
  'readability-jsdom': (page) => {
    const { document } = new JSDOM(page.html, { url: page.url, virtualConsole: quietConsole }).window;
    return new Readability(document).parse()?.textContent ?? '';
  },
  'readability-linkedom': (page) => {
    const { document } = parseHTML(page.html) as unknown as { document: Document };
    return new Readability(document).parse()?.textContent ?? '';
  },
};

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

function run(name: string, extract: Extractor, pages: Article[], outFile: string): void {
  const timings: number[] = [];
  const output: Output = {};
  let peakRss = process.memoryUsage.rss();
  let peakHeap = process.memoryUsage().heapUsed;
  const started = performance.now();
  for (const page of pages) {
    const start = performance.now();
    let articleBody = '';
    try {
      articleBody = extract(page);
    } catch (error) {
      console.error(`${name}: ${page.id} failed: ${(error as Error).message}`);
    }
    timings.push(performance.now() - start);
    output[page.id] = { articleBody };
    const memory = process.memoryUsage();
    peakRss = Math.max(peakRss, memory.rss);
    peakHeap = Math.max(peakHeap, memory.heapUsed);
  }
  const elapsed = (performance.now() - started) / 1000;
  timings.sort((a, b) => a - b);
  writeFileSync(outFile, `${JSON.stringify(output, null, 1)}\n`);
  const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  console.log(
    `${name.padEnd(20)} pages=${pages.length} p50=${percentile(timings, 0.5).toFixed(1)} ms ` +
      `p95=${percentile(timings, 0.95).toFixed(1)} ms pages/s=${(pages.length / elapsed).toFixed(1)} ` +
      `peak rss=${mb(peakRss)} peak heap=${mb(peakHeap)} (process-wide) -> ${outFile}`,
  );
}

const { values } = parseArgs({
  options: {
    'html-dir': { type: 'string' },
    out: { type: 'string' },
    compare: { type: 'boolean', default: false },
  },
});
const htmlDir = values['html-dir'];
const out = values.out;
if (!htmlDir || !out) {
  console.error('usage: npm run bench:extract -- --html-dir DIR --out FILE [--compare]');
  process.exit(2);
}
const pages = loadArticles(htmlDir);
// Warm-up so the first page does not carry module compilation and JIT start-up.
for (const page of pages.slice(0, 3)) extractors.ours?.(page);
run('ours', extractors.ours!, pages, out);
if (values.compare) {
  const readabilityOut = `${out.replace(/\.json$/, '')}.readability.json`;
  // Linkedom first: jsdom leaves a large heap behind that would slow whatever runs after it.
  run(
    'readability-linkedom',
    extractors['readability-linkedom']!,
    pages,
    `${out.replace(/\.json$/, '')}.readability-linkedom.json`,
  );
  run('readability-jsdom', extractors['readability-jsdom']!, pages, readabilityOut);
}
