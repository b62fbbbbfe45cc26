// The browser extension's work on a page it repaints: reading the page's text, anchoring its
// highlights and painting them with the CSS Custom Highlight API: the content script's own code
// (extension/content/roots.ts and paint.ts, bundled as the extension bundles them), in Chromium,
// on the extraction corpus's pages (scripts taken out), each page's first paint timed.
// Budget (issue 19): a content script adds < 50 ms to a page's load.
// Run: npm run bench:extension-paint [-- --pages 30 --highlights 5]
import { build } from 'esbuild';
import { launchBrowser } from '../helpers/browser.ts';
import { corpusIds, corpusPage } from '../helpers/site.ts';

const BUDGET_MS = 50;
const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback;
const PAGES = option('pages', 30);
const HIGHLIGHTS = option('highlights', 5);

// What the page runs: the content script's modules, and a timer around their first paint.
const ENTRY = `
import { Painter } from './extension/content/paint.ts';
import { describeOnPage, pageChanged, placeOnPage } from './extension/content/roots.ts';
globalThis.marginSelectors = (count) => {
  const texts = [...document.body.querySelectorAll('p, li, td, div')].flatMap((el) =>
    [...el.childNodes].filter((n) => n.nodeType === 3 && n.data.trim().length > 40));
  const picked = [];
  for (let i = 0; i < count && texts.length; i++) {
    const node = texts[Math.floor(((i + 0.5) / count) * texts.length)];
    const range = document.createRange();
    range.setStart(node, 5);
    range.setEnd(node, Math.min(node.data.length, 35));
    const described = describeOnPage(range);
    if (described) picked.push(described.selectors);
  }
  pageChanged();
  return picked;
};
globalThis.marginPaint = (all) => {
  const start = performance.now();
  const painter = new Painter({});
  let placed = 0;
  all.forEach((selectors, i) => {
    const range = placeOnPage(selectors);
    if (range) { painter.paint(String(i), { range, slotId: 1 + (i % 6), style: 1 }); placed++; }
  });
  document.body.getBoundingClientRect();
  return { ms: performance.now() - start, placed };
};
`;

const bundle = await build({
  stdin: { contents: ENTRY, resolveDir: new URL('../..', import.meta.url).pathname, loader: 'ts' },
  bundle: true,
  write: false,
  format: 'iife',
  minify: true,
  loader: { '.css': 'text' },
  logLevel: 'silent',
});
const script = bundle.outputFiles[0]?.text ?? '';

const browser = await launchBrowser();
const results: { id: string; kb: number; ms: number; placed: number; wanted: number }[] = [];
try {
  const context = await browser.newContext();
  // Nothing leaves the machine: the corpus pages' images and styles point elsewhere.
  await context.route(/^https?:/, (route) => route.abort());
  for (const id of corpusIds().slice(0, PAGES)) {
    const html = corpusPage(id)
      .html.toString('utf8')
      .replace(/<script\b[\s\S]*?<\/script>/gi, '');
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'domcontentloaded' });
    await page.addScriptTag({ content: script });
    const selectors = await page.evaluate(
      (n) => (globalThis as never as { marginSelectors(n: number): unknown[] }).marginSelectors(n),
      HIGHLIGHTS,
    );
    // A fresh load, as a revisit is: nothing built yet.
    await page.setContent(html, { waitUntil: 'domcontentloaded' });
    await page.addScriptTag({ content: script });
    const { ms, placed } = await page.evaluate(
      (all) =>
        (globalThis as never as { marginPaint(a: unknown[]): { ms: number; placed: number } }).marginPaint(
          all,
        ),
      selectors,
    );
    results.push({
      id: id.slice(0, 8),
      kb: Math.round(html.length / 1024),
      ms,
      placed,
      wanted: selectors.length,
    });
    await page.close();
  }
} finally {
  await browser.close();
}

const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const worst = results.reduce((a, b) => (b.ms > a.ms ? b : a));
console.log(
  `${results.length} corpus pages, ${HIGHLIGHTS} highlights each: read, anchor and paint on a fresh load`,
);
console.log(
  `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${worst.ms.toFixed(1)} ms (${worst.kb} KB page ${worst.id}); ` +
    `placed ${results.reduce((s, r) => s + r.placed, 0)} of ${results.reduce((s, r) => s + r.wanted, 0)}`,
);
console.log(`budget ${BUDGET_MS} ms: ${at(0.95) < BUDGET_MS ? 'met' : 'MISSED'} at p95`);
process.exitCode = at(0.95) < BUDGET_MS ? 0 : 1;
