// `npm run bench:first-card`: navigation → first note card on the home route, signed in, with
// 10,000 notes. Seeds BENCH_DATABASE_URL once (test/bench/seed.ts; `--reseed` to redo it), builds
// the client when it is missing (`--build` to rebuild), starts the real server (`server/main.ts`,
// production mode) on port 3921, signs in through the login form in Chromium, warms up, then
// times 7 navigations with the browser's cache warm and 7 with a fresh context (cold cache).
// Times are from the navigation's start (performance.now() in the page). `--baseline DIR` also
// serves another checkout (built there) on the next port against the same database and
// alternates navigations between the two, for a same-run comparison on a busy machine.
// `--trace` prints the last navigation's long tasks and resources; `--runs N` times N, not 7.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { hashPassword } from '../../server/domain/auth/password.ts';
import { launchBrowser } from '../helpers/browser.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BENCH_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/margin_bench_firstcard';
const PORT = Number(process.env.BENCH_PORT ?? 3921);
const NOTES = 10_000;
const HIGHLIGHTS = 20_000;
const WARMUP = 3;
const EMAIL = 'bench@example.test';
const PASSWORD = 'first-card bench password';
const flag = (name: string) => process.argv.includes(`--${name}`);
const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(option('runs') ?? 7);
const node = process.execPath;

async function seededNotes(): Promise<number> {
  const client = new pg.Client({ connectionString: BENCH_URL });
  try {
    await client.connect();
    const { rows } = await client.query(
      `select count(*)::int n from note where user_id = (select id from "user" where email = $1)`,
      [EMAIL],
    );
    return rows[0]?.n ?? 0;
  } catch {
    return 0; // no such database yet
  } finally {
    await client.end().catch(() => {});
  }
}

async function seed(): Promise<void> {
  if (!flag('reseed') && (await seededNotes()) === NOTES) return;
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

function buildClient(target: Target): void {
  if (!flag('build') && fs.existsSync(path.join(target.root, 'dist/client/index.html'))) return;
  const run = spawnSync(node, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    cwd: target.root,
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

/** Runs in the page before its scripts: notes when the first card enters the DOM and paints. */
function watchFirstCard(): void {
  const mark = { inserted: 0, painted: 0, longTasks: [] as [number, number][] };
  (window as unknown as { __firstCard: typeof mark }).__firstCard = mark;
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) mark.longTasks.push([task.startTime, task.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const observer = new MutationObserver(() => {
    if (mark.inserted || !document.querySelector('[data-testid="note-item"]')) return;
    mark.inserted = performance.now();
    observer.disconnect();
    // The frame that shows it: after the next animation frame's rendering steps.
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        mark.painted = performance.now();
      };
      channel.port2.postMessage(null);
    });
  });
  observer.observe(document, { childList: true, subtree: true });
}

interface Sample {
  painted: number;
  inserted: number;
  /** The page itself fully received (with the data it carries). */
  html: number;
  entryScript: number;
  trpc: { procedures: string; start: number; firstByte: number; end: number }[];
  /** Main-thread tasks over 50 ms before the card painted: [start, duration]. */
  longTasks: [number, number][];
  /** Every resource the page loaded, for `--trace`. */
  resources: { name: string; start: number; end: number; bytes: number }[];
}

async function navigate(page: Page, target: Target): Promise<Sample> {
  await page.goto(`http://127.0.0.1:${target.port}/`, { waitUntil: 'commit' });
  await page.waitForFunction(
    () => (window as unknown as { __firstCard: { painted: number } }).__firstCard.painted > 0,
    null,
    { timeout: 30_000, polling: 50 },
  );
  return page.evaluate(() => {
    const mark = (
      window as unknown as {
        __firstCard: { inserted: number; painted: number; longTasks: [number, number][] };
      }
    ).__firstCard;
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const entry = document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src;
    const script = resources.find((r) => r.name === entry);
    return {
      painted: mark.painted,
      inserted: mark.inserted,
      html: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseEnd,
      entryScript: script?.responseEnd ?? 0,
      longTasks: mark.longTasks.filter(([start]) => start < mark.painted),
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
  console.log(`\n${label}: navigation start → first note card painted`);
  for (const [i, s] of samples.entries()) {
    const list = s.trpc.find((r) => r.procedures.split(',').includes('notes.list'));
    const first = s.trpc[0];
    console.log(
      `  #${i + 1} ${ms(s.painted)}  (in DOM ${ms(s.inserted)}; HTML ${ms(s.html)}; entry script ${ms(s.entryScript)}; ` +
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
  const sorted = samples.map((s) => s.painted).sort((a, b) => a - b);
  console.log(`  p50 ${ms(sorted[Math.floor(sorted.length / 2)] ?? 0)} over ${samples.length} navigations`);
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
  const newContext = async (storageState?: Awaited<ReturnType<BrowserContext['storageState']>>) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState });
    await context.addInitScript(watchFirstCard);
    return context;
  };
  // Cookies are per host, not per port: one sign-in serves every target.
  const context = await newContext();
  const login = await context.newPage();
  await login.goto(`http://127.0.0.1:${PORT}/login`);
  await login.getByTestId('login-form').locator('input[name="email"]').fill(EMAIL);
  await login.getByTestId('login-form').locator('input[name="password"]').fill(PASSWORD);
  await login.getByTestId('login-form').locator('button[type="submit"]').click();
  await login.waitForSelector('[data-testid="note-item"]', { timeout: 30_000 });
  const session = await context.storageState();

  const tabs = await Promise.all(targets.map(() => context.newPage()));
  for (let i = 0; i < WARMUP; i++)
    for (const [t, target] of targets.entries()) await navigate(tabs[t] as Page, target);
  const warm = targets.map((): Sample[] => []);
  for (let i = 0; i < RUNS; i++)
    for (const [t, target] of targets.entries()) warm[t]?.push(await navigate(tabs[t] as Page, target));

  const cold = targets.map((): Sample[] => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [t, target] of targets.entries()) {
      const fresh = await newContext(session);
      cold[t]?.push(await navigate(await fresh.newPage(), target));
      await fresh.close();
    }
  }
  console.log(`${NOTES} notes, ${HIGHLIGHTS} highlights; NODE_ENV=production`);
  for (const [t, target] of targets.entries()) {
    console.log(`\n# ${target.label} (:${target.port})`);
    report('browser cache warm (same tab)', warm[t] ?? []);
    report('browser cache cold (fresh context)', cold[t] ?? []);
  }
} finally {
  await browser.close();
  for (const server of servers) server.kill('SIGTERM');
}
