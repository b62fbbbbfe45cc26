// `npm run bench:reader`: open the reader on a long article (~100 KB of text) carrying 500
// highlights, in Chromium, and time until every highlight is on screen; then open the highlights
// drawer. Scratch database; loopback only.
//
// "Painted" is observed from inside the page, whatever the painter: every animation frame counts
// the ranges registered with the CSS Custom Highlight API (`CSS.highlights`) and the distinct
// <mark data-highlight-id> elements; once all highlights are there, the time is taken after that
// frame (a message posted from its requestAnimationFrame runs after it is rendered).
// Each load is timed from navigation start and from the arrival of the highlights (the end of the
// tRPC response that carried `highlights.byNote`); the reader's own User Timing measures
// (`highlights:anchor`, `highlights:paint`) split the work after arrival.
//
// Modes: `highlight-api` (the browser's own), `spans` (CSS.highlights removed before the app
// starts: the fallback every browser without the API gets).
// Options: --runs N (loads per mode, after one warm-up; default 11), --mode highlight-api|spans,
// --trace FILE (records a Chromium performance trace of one more load per mode, FILE-<mode>.json,
// for chrome://tracing or the DevTools Performance panel), --client DIR (repeatable: also time
// another client build, e.g. one built from an older commit with `vite build --outDir DIR`; the
// builds take turns, so they share the machine's noise). With --client every build's index.html
// is the static file, without the signed-in user the server writes into it, so the page asks
// for the user first and nothing is preloaded: a slower path than production's. To compare
// against an older commit as users get it, run this bench in that commit's checkout instead.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Browser, CDPSession, Page as Tab } from 'playwright-core';
import { createApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { Note, NoteContent } from '../../server/db/entities/index.ts';
import { createOrm, migrate } from '../../server/db/orm.ts';
import { createComputePool } from '../../server/deps.ts';
import { newUser } from '../../server/domain/auth/auth.service.ts';
import { createSession } from '../../server/domain/auth/session.service.ts';
import { createHighlight } from '../../server/domain/highlights/highlights.service.ts';
import { urlHash } from '../../server/domain/notes/clip.service.ts';
import { setLogLevel } from '../../server/log.ts';
import { closeQueues, createQueues, createRedis } from '../../server/queue.ts';
import { CLIENT_DIST } from '../../server/static.ts';
import { createStorage } from '../../server/storage/index.ts';
import { describeRange } from '../../src/anchoring/index.ts';
import { ClipStatus, CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { ensureClientBuilt, launchBrowser } from '../helpers/browser.ts';
import { languageFor, prng, sentence } from './corpus.ts';

const MODES = ['highlight-api', 'spans'] as const;
type Mode = (typeof MODES)[number];

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '11' },
    mode: { type: 'string', multiple: true },
    trace: { type: 'string' },
    client: { type: 'string', multiple: true },
  },
});
const RUNS = Number(options.runs);
const modes = (options.mode ?? MODES) as Mode[];
for (const mode of modes) if (!MODES.includes(mode)) throw new Error(`unknown --mode ${mode}`);

const HIGHLIGHTS = 500;
const ADMIN = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `margin_renderbench_${randomBytes(3).toString('hex')}`;

ensureClientBuilt();
setLogLevel('error');
const admin = new pg.Client({ connectionString: ADMIN });
await admin.connect();
await admin.query(
  `create database ${name} encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8' template template0`,
);
const url = ADMIN.replace(/\/[^/]*$/, `/${name}`);
const config = loadConfig({ DATABASE_URL: url, REDIS_PREFIX: name, LOG_LEVEL: 'error' });
const orm = await createOrm(url);
await migrate(orm);
const redis = createRedis(config.redisUrl, 'producer');
const queues = createQueues(redis, config.redisPrefix);
const compute = createComputePool(config, redis);

// A long article: paragraphs of mixed-language sentences, with their plain text as the server
// stores it (paragraphs separated by a blank line).
const random = prng(7);
const paragraphs: string[] = [];
while (paragraphs.join('\n\n').length < 100_000) {
  const language = languageFor(random);
  paragraphs.push(Array.from({ length: 5 }, () => sentence(random, language)).join(' '));
}
const text = paragraphs.join('\n\n');
const em = orm.em.fork();
const user = newUser(em, { email: 'render@example.test', passwordHash: null, language: 'en' });
await em.flush();
const pageUrl = 'https://render.example/long';
const note = em.create(Note, {
  id: newId(),
  user: user.id,
  url: pageUrl,
  urlHash: urlHash(pageUrl),
  title: 'A long article',
  clipStatus: ClipStatus.done,
});
em.create(NoteContent, { note, text, contentHtml: paragraphs.map((p) => `<p>${p}</p>`).join('\n') });
await em.flush();
for (let i = 0; i < HIGHLIGHTS; i++) {
  const start = Math.floor((i / HIGHLIGHTS) * (text.length - 80));
  await createHighlight({ em: orm.em.fork(), queues, config }, user, {
    id: newId(),
    noteId: note.id,
    coreType: CoreType.highlight,
    selectors: describeRange(text, start, start + 20 + (i % 40)),
    text: '',
    slotId: 1 + (i % 6),
    style: 1 + (i % 4),
    tags: [],
  });
}
const { token } = await createSession(orm.em.fork(), user, { ip: null, userAgent: 'bench' });
const server = createApp({ config, orm, redis, queues, storage: createStorage(config), compute }).listen(
  0,
  '127.0.0.1',
);
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

/** Installed before the app in every document: watches each frame for all highlights painted. */
function watchPainting(expected: number) {
  const state = window as unknown as { __paintedAt?: number; __paintedCount?: number };
  // Cheap enough to run every frame: ranges are counted from the registry, marks only once there
  // are enough of them (a live collection's length costs nothing).
  const marks = document.getElementsByTagName('mark');
  const painted = () => {
    let ranges = 0;
    if (typeof CSS !== 'undefined' && 'highlights' in CSS)
      for (const highlight of CSS.highlights.values()) ranges += highlight.size;
    if (ranges >= expected || marks.length < expected) return ranges;
    const ids = new Set<string>();
    for (const mark of marks) ids.add(mark.getAttribute('data-highlight-id') ?? '');
    return ids.size;
  };
  const afterFrame = new MessageChannel();
  afterFrame.port1.onmessage = () => {
    state.__paintedAt = performance.now();
  };
  const check = () => {
    const count = painted();
    if (count >= expected) {
      state.__paintedCount = count;
      afterFrame.port2.postMessage(null);
    } else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

function withoutHighlightApi() {
  delete (CSS as { highlights?: unknown }).highlights;
}

interface Load {
  painted: number;
  dataArrived: number;
  anchor: number;
  paint: number;
  /** How many times the reader painted (each repaint adds to the measures). */
  paints: number;
  count: number;
  /** The API requests of the load: procedures, start and end (ms from navigation start). */
  requests: { procedures: string; start: number; end: number }[];
  /** The renderer main thread's CPU time over the load (from navigation to painted and read). */
  cpu: number;
  /** Of the load's main-thread time: script, style and layout (wall time, as Chromium counts it). */
  script: number;
  style: number;
  layout: number;
}

const sessions = new WeakMap<Tab, CDPSession>();

/** Chromium's running totals for the page's renderer (seconds). */
async function metrics(page: Tab): Promise<Record<string, number>> {
  let session = sessions.get(page);
  if (!session) {
    session = await page.context().newCDPSession(page);
    await session.send('Performance.enable');
    sessions.set(page, session);
  }
  const { metrics: list } = await session.send('Performance.getMetrics');
  return Object.fromEntries(list.map((metric) => [metric.name, metric.value]));
}

async function load(page: Tab): Promise<Load> {
  await page.goto(`${base}/?pi=${note.id}&vs=article`);
  await page.waitForFunction(() => (window as { __paintedAt?: number }).__paintedAt !== undefined, null, {
    timeout: 60_000,
  });
  // The totals start again at each navigation.
  const after = await metrics(page);
  const spent = (name: string) => (after[name] ?? Number.NaN) * 1000;
  const inPage = await page.evaluate(() => {
    const state = window as unknown as { __paintedAt: number; __paintedCount: number };
    const request = performance
      .getEntriesByType('resource')
      .find((entry) => entry.name.includes('highlights.byNote')) as PerformanceResourceTiming | undefined;
    const total = (name: string) =>
      performance.getEntriesByName(name, 'measure').reduce((sum, entry) => sum + entry.duration, 0);
    return {
      painted: state.__paintedAt,
      dataArrived: request?.responseEnd ?? Number.NaN,
      anchor: total('highlights:anchor'),
      paint: total('highlights:paint'),
      paints: performance.getEntriesByName('highlights:paint', 'measure').length,
      count: state.__paintedCount,
      requests: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => new URL(entry.name).pathname.startsWith('/trpc/'))
        .map((entry) => ({
          procedures: decodeURIComponent(new URL(entry.name).pathname.slice('/trpc/'.length)),
          start: entry.startTime,
          end: entry.responseEnd,
        })),
    };
  });
  return {
    ...inPage,
    cpu: spent('ThreadTime'),
    script: spent('ScriptDuration'),
    style: spent('RecalcStyleDuration'),
    layout: spent('LayoutDuration'),
  };
}

/** Click on the drawer button → its entries are on screen. */
async function openPanel(page: Tab): Promise<{ ms: number; entries: number }> {
  const ms = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const started = performance.now();
        const check = () => {
          if (document.querySelector('[data-testid="panel-entry"]')) {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve(performance.now() - started);
            channel.port2.postMessage(null);
          } else requestAnimationFrame(check);
        };
        (document.querySelector('[data-testid="reader-highlights"]') as HTMLElement).click();
        requestAnimationFrame(check);
      }),
  );
  const entries = await page.locator('[data-testid="panel-entry"]').count();
  await page.keyboard.press('Escape');
  await page.getByTestId('highlights-panel').waitFor({ state: 'detached' });
  return { ms, entries };
}

async function traceOneLoad(browser: Browser, page: Tab, file: string): Promise<void> {
  await browser.startTracing(page, {
    path: file,
    categories: [
      'devtools.timeline',
      'blink.user_timing',
      'v8.execute',
      'disabled-by-default-devtools.timeline',
    ],
  });
  await load(page);
  await browser.stopTracing();
  console.log(`  performance trace of one load: ${file}`);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
const figures = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5).toFixed(0).padStart(5)} ms   p95 ${percentile(sorted, 0.95).toFixed(0).padStart(5)} ms`;
};

const browser = await launchBrowser();
/** A client build to time: the app's own, or another build's files served in its place. */
interface Client {
  label: string;
  dir?: string;
}
// Other builds are served by the browser's request routing, which costs every request a round
// trip to Playwright; the app's own build is then served the same way, so the timings compare.
const clients: Client[] = options.client
  ? [CLIENT_DIST, ...options.client].map((dir) => ({ label: dir, dir }))
  : [{ label: 'dist/client' }];

async function openTab(client: Client, mode: Mode): Promise<Tab> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'logininfo', value: token, url: base }]);
  if (client.dir) {
    const dir = client.dir;
    // Everything but the API comes from the other build: its index.html, whatever the path.
    await context.route(
      (address) => address.origin === base && !address.pathname.startsWith('/trpc'),
      async (route) => {
        const { pathname } = new URL(route.request().url());
        const file = path.join(dir, pathname.startsWith('/assets/') ? pathname : 'index.html');
        if (!fs.existsSync(file)) return route.continue();
        await route.fulfill({ path: file });
      },
    );
  }
  if (mode === 'spans') await context.addInitScript(withoutHighlightApi);
  await context.addInitScript(watchPainting, HIGHLIGHTS);
  return context.newPage();
}

function report(label: string, loads: Load[], panels: number[], entries: number): void {
  console.log(
    `\n${label}: ${loads[0]?.count} highlights painted, ${Math.max(...loads.map((l) => l.paints))} paint(s) per load at most`,
  );
  console.log(`  navigation start → all painted   ${figures(loads.map((l) => l.painted))}`);
  console.log(`  navigation start → data arrived  ${figures(loads.map((l) => l.dataArrived))}`);
  console.log(`  data arrived → all painted       ${figures(loads.map((l) => l.painted - l.dataArrived))}`);
  console.log(`    of which anchoring (measure)   ${figures(loads.map((l) => l.anchor))}`);
  console.log(`    of which painting (measure)    ${figures(loads.map((l) => l.paint))}`);
  const median = [...loads].sort((a, b) => a.painted - b.painted)[Math.floor(loads.length / 2)];
  for (const request of median?.requests ?? [])
    console.log(
      `    (median load) ${request.start.toFixed(0).padStart(5)} → ${request.end.toFixed(0).padStart(5)} ms  ${request.procedures}`,
    );
  console.log(`  main-thread CPU, whole load      ${figures(loads.map((l) => l.cpu))}`);
  console.log(`    script / style / layout (wall) ${figures(loads.map((l) => l.script))}`);
  console.log(`                                   ${figures(loads.map((l) => l.style))}`);
  console.log(`                                   ${figures(loads.map((l) => l.layout))}`);
  console.log(`  drawer: click → entries shown    ${figures(panels)}   (${entries} entries rendered)`);
}

console.log(
  `${text.length} characters, ${HIGHLIGHTS} highlights, ${RUNS} loads per mode and client after a warm-up` +
    (clients.length > 1 ? ', the clients taking turns' : ''),
);
for (const mode of modes) {
  const tabs = await Promise.all(clients.map((client) => openTab(client, mode)));
  for (const tab of tabs) await load(tab);
  const loads = tabs.map((): Load[] => []);
  const panels = tabs.map((): number[] => []);
  const entries = tabs.map(() => 0);
  for (let run = 0; run < RUNS; run++) {
    for (const [i, tab] of tabs.entries()) loads[i]!.push(await load(tab));
  }
  for (let run = 0; run < RUNS; run++) {
    for (const [i, tab] of tabs.entries()) {
      const opened = await openPanel(tab);
      panels[i]!.push(opened.ms);
      entries[i] = opened.entries;
    }
  }
  for (const [i, client] of clients.entries())
    report(`${mode}, ${client.label}`, loads[i]!, panels[i]!, entries[i]!);
  if (options.trace) await traceOneLoad(browser, tabs[0]!, `${options.trace}-${mode}.json`);
  for (const tab of tabs) await tab.context().close();
}

await browser.close();
server.close();
await closeQueues(queues);
redis.disconnect();
await compute.close();
await orm.close();
await admin.query(`drop database ${name} with (force)`);
await admin.end();
