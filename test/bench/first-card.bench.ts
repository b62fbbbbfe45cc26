// `npm run bench:first-card`: navigation → the first note card's title in the page's text, on the
// home route, signed in, with 10,000 notes (~3 highlights each, tags), in Chromium at 1280×800.
// Seeds BENCH_DATABASE_URL once (test/bench/seed.ts; `--reseed` to redo it), builds the client as
// `npm start` serves it (`vite build`, into dist/bench-first-card so other builds are left alone;
// `--no-build` reuses it), starts the real
// server (`server/main.ts`, production mode) on port 3921, signs in through the login form, then
// times navigations in ONE browser context (its HTTP cache warm, as for a returning user), each
// in a new tab as a returning user opens it: 2 warm-ups, then 7, reporting the median; then 7 in
// one tab navigated again and again (V8 and the renderer warm too: faster than a person's new
// visit); then 7 more each in a fresh context (cold cache).
// The card counts as seen in the first animation frame whose page text (document.body's
// textContent, checked by requestAnimationFrame in the page) holds its title; times are from the
// navigation's start (performance.now() in the page). `--baseline DIR` also serves another
// checkout (built there the same way) on the next port against the same database and alternates
// navigations between the two, for a same-run comparison on a busy machine.
// `--trace` prints the last navigation's long tasks and resources; `--runs N` times N, not 7.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../server/domain/auth/password.ts';
import { launchBrowser } from '../helpers/browser.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BENCH_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/margin_bench_firstcard';
const PORT = Number(process.env.BENCH_PORT ?? 3921);
const NOTES = 10_000;
const HIGHLIGHTS = 30_000;
const WARMUP = 2;
/** The build this bench serves (MARGIN_CLIENT_DIST), in each checkout measured. */
const DIST = 'dist/bench-first-card';
const EMAIL = 'bench@example.test';
const PASSWORD = 'first-card bench password';
const flag = (name: string) => process.argv.includes(`--${name}`);
const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(option('runs') ?? 7);
const node = process.execPath;

async function seededRows(): Promise<{ notes: number; highlights: number }> {
  const client = new pg.Client({ connectionString: BENCH_URL });
  try {
    await client.connect();
    const { rows } = await client.query(
      `select (select count(*)::int from note where user_id = u.id) notes,
              (select count(*)::int from highlight where user_id = u.id) highlights
         from "user" u where email = $1`,
      [EMAIL],
    );
    return rows[0] ?? { notes: 0, highlights: 0 };
  } catch {
    return { notes: 0, highlights: 0 }; // no such database yet
  } finally {
    await client.end().catch(() => {});
  }
}

async function seed(): Promise<void> {
  const seeded = await seededRows();
  if (!flag('reseed') && seeded.notes === NOTES && seeded.highlights === HIGHLIGHTS) return;
  const run = spawnSync(
    node,
    ['test/bench/seed.ts', '--pages', String(NOTES), '--highlights', String(HIGHLIGHTS)],
    { cwd: ROOT, env: { ...process.env, BENCH_DATABASE_URL: BENCH_URL }, stdio: 'inherit' },
  );
  if (run.status !== 0) throw new Error('seeding failed');
}

/** The seeded user signs in with a password, like a person would. */
async function setPassword(): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_URL });
  await client.connect();
  await client.query(`update "user" set password_hash = $1 where email = $2`, [
    await hashPassword(PASSWORD),
    EMAIL,
  ]);
  await client.end();
}

/** A checkout whose client and server are measured. */
interface Target {
  label: string;
  root: string;
  port: number;
}

/** The client as `npm start` builds it. */
function buildClient(target: Target): void {
  if (flag('no-build') && fs.existsSync(path.join(target.root, DIST, 'index.html'))) return;
  const run = spawnSync(node, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    cwd: target.root,
    env: { ...process.env, MARGIN_CLIENT_DIST: DIST },
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error(`client build failed in ${target.root}`);
}

async function startServer(target: Target): Promise<ChildProcess> {
  const answers = () =>
    fetch(`http://127.0.0.1:${target.port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
  if (await answers()) throw new Error(`something already answers on port ${target.port}`);
  const server = spawn(node, ['server/main.ts'], {
    cwd: target.root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      MARGIN_CLIENT_DIST: DIST,
      DATABASE_URL: BENCH_URL,
      PORT: String(target.port),
      HOST: '127.0.0.1',
      REDIS_PREFIX: `margin_bench_firstcard_${target.port}`,
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`the server in ${target.root} exited (${server.exitCode})`);
    if (await answers()) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server in ${target.root} did not answer /healthz in 30 s`);
}

/**
 * Runs in the page before its scripts: the first animation frame whose page text holds the
 * first card's title, and the main thread's long tasks.
 */
function watchFirstCard(title: string): void {
  const mark = { seen: 0, longTasks: [] as [number, number][] };
  (window as unknown as { __firstCard: typeof mark }).__firstCard = mark;
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) mark.longTasks.push([task.startTime, task.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    if (document.body?.textContent?.includes(title)) mark.seen = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

interface Sample {
  seen: number;
  /** The page itself fully received (with the data and the first screen it carries). */
  html: number;
  /** The page's first byte: the head goes out before the data is read. */
  htmlFirstByte: number;
  entryScript: number;
  trpc: { procedures: string; start: number; firstByte: number; end: number }[];
  /** Main-thread tasks over 50 ms before the card was seen: [start, duration]. */
  longTasks: [number, number][];
  /** Every resource the page loaded, for `--trace`. */
  resources: { name: string; start: number; end: number; bytes: number }[];
}

async function navigate(page: Page, target: Target): Promise<Sample> {
  await page.goto(`http://127.0.0.1:${target.port}/`, { waitUntil: 'commit' });
  await page.waitForFunction(
    () => (window as unknown as { __firstCard: { seen: number } }).__firstCard.seen > 0,
    null,
    { timeout: 30_000, polling: 50 },
  );
  return page.evaluate(() => {
    const mark = (window as unknown as { __firstCard: { seen: number; longTasks: [number, number][] } })
      .__firstCard;
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const entry = document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src;
    const script = resources.find((r) => r.name === entry);
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return {
      seen: mark.seen,
      html: navigation.responseEnd,
      htmlFirstByte: navigation.responseStart,
      entryScript: script?.responseEnd ?? 0,
      longTasks: mark.longTasks.filter(([start]) => start < mark.seen),
      trpc: resources
        .filter((r) => new URL(r.name).pathname.startsWith('/trpc/'))
        .map((r) => ({
          procedures: decodeURIComponent(new URL(r.name).pathname.slice('/trpc/'.length)),
          start: r.startTime,
          firstByte: r.responseStart,
          end: r.responseEnd,
        })),
      resources: resources.map((r) => ({
        name: new URL(r.name).pathname,
        start: r.startTime,
        end: r.responseEnd,
        bytes: r.encodedBodySize,
      })),
    };
  });
}

const ms = (n: number) => `${n.toFixed(0).padStart(5)} ms`;

function report(label: string, samples: Sample[]): void {
  console.log(`\n${label}: navigation start → the first card's title in the page's text`);
  for (const [i, s] of samples.entries()) {
    const list = s.trpc.find((r) => r.procedures.split(',').includes('notes.list'));
    const first = s.trpc[0];
    console.log(
      `  #${i + 1} ${ms(s.seen)}  (HTML first byte ${ms(s.htmlFirstByte)}, end ${ms(s.html)}; entry script ${ms(s.entryScript)}; ` +
        `first tRPC request ${first ? ms(first.start) : '   none'}; ` +
        (list
          ? `notes.list request ${ms(list.start)} → first byte ${ms(list.firstByte)} → end ${ms(list.end)} [${list.procedures}])`
          : 'no notes.list request)'),
    );
  }
  if (flag('trace')) {
    const last = samples.at(-1);
    console.log(
      `  long tasks of the last navigation: ${last?.longTasks.map(([start, d]) => `${start.toFixed(0)}+${d.toFixed(0)}`).join(', ') || 'none'}`,
    );
    console.log('  resources of the last navigation (start → end, encoded bytes):');
    for (const r of samples.at(-1)?.resources ?? [])
      console.log(`    ${ms(r.start)} → ${ms(r.end)} ${String(r.bytes).padStart(7)} ${r.name}`);
  }
  const sorted = samples.map((s) => s.seen).sort((a, b) => a - b);
  console.log(
    `  median ${ms(sorted[Math.floor(sorted.length / 2)] ?? 0)} (runs ${ms(sorted[0] ?? 0)} – ${ms(sorted.at(-1) ?? 0)}) over ${samples.length} navigations`,
  );
}

const targets: Target[] = [{ label: 'this checkout', root: ROOT, port: PORT }];
const baseline = option('baseline');
if (baseline) targets.push({ label: `baseline ${baseline}`, root: path.resolve(baseline), port: PORT + 1 });

await seed();
await setPassword();
const servers: ChildProcess[] = [];
const browser = await launchBrowser();
try {
  for (const target of targets) {
    buildClient(target);
    servers.push(await startServer(target));
  }
  // Cookies are per host, not per port: one sign-in serves every target.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const login = await context.newPage();
  await login.goto(`http://127.0.0.1:${PORT}/login`);
  await login.getByTestId('login-form').locator('input[name="email"]').fill(EMAIL);
  await login.getByTestId('login-form').locator('input[name="password"]').fill(PASSWORD);
  await login.getByTestId('login-form').locator('button[type="submit"]').click();
  const firstTitle = login.getByTestId('note-item').first().locator('.note-item-title');
  const title = (await firstTitle.textContent({ timeout: 30_000 })) ?? '';
  if (!title) throw new Error('the first card has no title');
  await context.addInitScript(watchFirstCard, title);
  const session = await context.storageState();
  const newContext = async () => {
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: session });
    await fresh.addInitScript(watchFirstCard, title);
    return fresh;
  };

  const inNewTab = async (target: Target) => {
    const tab = await context.newPage();
    try {
      return await navigate(tab, target);
    } finally {
      await tab.close();
    }
  };
  for (let i = 0; i < WARMUP; i++) for (const target of targets) await inNewTab(target);
  const warm = targets.map((): Sample[] => []);
  for (let i = 0; i < RUNS; i++)
    for (const [t, target] of targets.entries()) warm[t]?.push(await inNewTab(target));

  const tabs = await Promise.all(targets.map(() => context.newPage()));
  for (const [t, target] of targets.entries()) await navigate(tabs[t] as Page, target);
  const reloaded = targets.map((): Sample[] => []);
  for (let i = 0; i < RUNS; i++)
    for (const [t, target] of targets.entries()) reloaded[t]?.push(await navigate(tabs[t] as Page, target));

  const cold = targets.map((): Sample[] => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [t, target] of targets.entries()) {
      const fresh = await newContext();
      cold[t]?.push(await navigate(await fresh.newPage(), target));
      await fresh.close();
    }
  }
  console.log(`${NOTES} notes, ${HIGHLIGHTS} highlights; NODE_ENV=production`);
  for (const [t, target] of targets.entries()) {
    console.log(`\n# ${target.label} (:${target.port})`);
    report(
      'browser cache warm, each load in a new tab of the same browser (a returning user)',
      warm[t] ?? [],
    );
    report('browser cache warm, the same tab navigated again', reloaded[t] ?? []);
    report('browser cache cold (fresh context)', cold[t] ?? []);
  }
} finally {
  await browser.close();
  for (const server of servers) server.kill('SIGTERM');
}
