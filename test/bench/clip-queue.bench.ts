// `npm run bench:clips -- [--pages 1000] [--settings 4x2,8x1,16x2] [--page-latency MS]`: local
// pages clipped end to end through the real path: the notes.clip service (clipUrl) queues each
// page on BullMQ (Redis), and the clip worker fetches it from a loopback HTTP server with the
// guarded fetcher, decodes it, extracts and sanitises it in the worker pool, and stores and
// indexes it in PostgreSQL.
//
// Every page is queued before the workers start, so the figure is the worker's drain rate: pages/s
// from the workers' start until every note is done or failed. Each setting is `concurrency x pool
// size` (CLIP_CONCURRENCY x EXTRACT_POOL_SIZE); without --settings, one run at the configured
// values (the environment's, else the defaults from the core count). Several settings run one
// after the other in the same process, so their ratios are comparable on a noisy machine.
// --page-latency delays every page's answer, as a distant site would (default 0: loopback).
//
// Exactly-once is checked, not assumed: a page is lost if its note never reached done or failed;
// duplicated if it was fetched (the site counts requests), extracted (a counting pool) or stored
// (a trigger counts writes of note_content and moves to done) more than once.
//
// Besides pages/s: cores used (the process's CPU time, all threads, per second of the run: below
// the core count when other work shares the machine, and pages/s follows it), CPU per page (all
// threads, and the event loop's own), how busy the event loop and the pool's threads were, and
// the peak RSS.
//
// Database: BENCH_DATABASE_URL (default margin_bench_clips), dropped and created afresh. Redis:
// BENCH_REDIS_PREFIX (default margin_bench_clips), its keys deleted before and after. The pages
// are served by a child process, so serving them costs the measured process nothing.
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { type AppConfig, loadConfig } from '../../server/config.ts';
import type { User } from '../../server/db/entities/index.ts';
import { createOrm, migrate, type Orm } from '../../server/db/orm.ts';
import { createComputePool } from '../../server/deps.ts';
import { newUser } from '../../server/domain/auth/auth.service.ts';
import { ExtractionPool } from '../../server/domain/clip/extract-in-worker.ts';
import { clipUrl } from '../../server/domain/notes/clip.service.ts';
import { setLogLevel } from '../../server/log.ts';
import { closeQueues, createQueues, createRedis, type Queues } from '../../server/queue.ts';
import { createStorage } from '../../server/storage/index.ts';
import { ClipStatus } from '../../src/enums.ts';
import { corpusIds, corpusPage } from '../helpers/site.ts';

const arg = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};

/** A run with no note settling for this long stops; its unsettled notes count as lost. */
const STALL_MS = 60_000;

/**
 * The child process: serves /<run>/<n> as corpus page n mod the corpus size, counts requests per
 * path, and answers GET /hits with the counts of paths requested more than once and the total.
 */
async function servePages(latencyMs: number): Promise<void> {
  const pages = corpusIds().map((id) => corpusPage(id).html);
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/hits') {
      const repeated = [...hits].filter(([, n]) => n > 1).length;
      res.end(JSON.stringify({ total: [...hits.values()].reduce((a, b) => a + b, 0), repeated }));
      return;
    }
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const n = Number(path.split('/').at(-1));
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    setTimeout(() => res.end(pages[n % pages.length]), latencyMs);
  });
  server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
  process.on('disconnect', () => process.exit(0));
}

interface PageSite {
  origin: string;
  target: string;
  hits(): Promise<{ total: number; repeated: number }>;
  close(): void;
}

async function startPageSite(latencyMs: number): Promise<PageSite> {
  const child: ChildProcess = spawn(
    process.execPath,
    [import.meta.filename, '--serve-pages', String(latencyMs)],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`page server exited (${code})`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    target: `127.0.0.1:${port}`,
    hits: async () => (await fetch(`${origin}/hits`)).json() as Promise<{ total: number; repeated: number }>,
    close: () => child.kill(),
  };
}

/**
 * Counts every extraction per URL (a page extracted twice is a duplicate) and how busy the pool's
 * threads were: the time-weighted share of threads with a page (fewer pages in the pool than
 * threads means fetches and writes did not keep up with extraction).
 */
class CountingPool extends ExtractionPool {
  readonly calls = new Map<string, number>();
  readonly #threads: number;
  readonly #started = performance.now();
  #inPool = 0;
  #since = this.#started;
  #threadMs = 0;

  constructor(options: { size: number; timeoutMs: number }) {
    super(options);
    this.#threads = options.size;
  }

  override extract(html: string, url: string) {
    this.calls.set(url, (this.calls.get(url) ?? 0) + 1);
    this.#count(+1);
    return super.extract(html, url).finally(() => this.#count(-1));
  }

  /** Share of the threads' time, since the pool was made, that they had a page to work on. */
  busyShare(): number {
    this.#count(0);
    return this.#threadMs / (this.#threads * (performance.now() - this.#started));
  }

  #count(change: number): void {
    const now = performance.now();
    this.#threadMs += Math.min(this.#inPool, this.#threads) * (now - this.#since);
    this.#since = now;
    this.#inPool += change;
  }
}

interface Setting {
  concurrency: number;
  poolSize: number;
}

interface RunResult extends Setting {
  pages: number;
  enqueueSeconds: number;
  seconds: number;
  done: number;
  failed: number;
  failures: string;
  lost: number;
  fetchedTwice: number;
  extractedTwice: number;
  storedTwice: number;
  cpuMsPerPage: number;
  mainCpuMsPerPage: number;
  mainThreadBusy: number;
  poolBusy: number;
  peakRssMb: number;
}

function parseSettings(configured: AppConfig): Setting[] {
  const list = arg('settings');
  if (!list) return [{ concurrency: configured.clipConcurrency, poolSize: configured.extractPoolSize }];
  return list.split(',').map((item) => {
    const [concurrency, poolSize] = item.split('x').map(Number);
    if (!Number.isInteger(concurrency) || !Number.isInteger(poolSize) || !concurrency || !poolSize)
      throw new Error(`--settings takes <concurrency>x<pool size>,…; got ${item}`);
    return { concurrency, poolSize };
  });
}

async function recreateDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^\w+$/.test(name)) throw new Error(`unexpected database name: ${name}`);
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(
    `create database ${name} encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8' template template0`,
  );
  await admin.end();
}

/** Bench-only bookkeeping in the scratch database: one row per stored result and per move to done. */
async function countWrites(db: pg.Client): Promise<void> {
  await db.query(`
    create table bench_clip_write (note_id text not null, what text not null);
    create function bench_count_content() returns trigger language plpgsql as $$
      begin insert into bench_clip_write values (new.note_id, 'content'); return new; end $$;
    create trigger bench_count_content after insert or update on note_content
      for each row execute function bench_count_content();
    create function bench_count_done() returns trigger language plpgsql as $$
      begin insert into bench_clip_write values (new.id, 'done'); return new; end $$;
    create trigger bench_count_done after update on note for each row
      when (new.clip_status = ${ClipStatus.done} and old.clip_status is distinct from new.clip_status)
      execute function bench_count_done();`);
}

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
}

async function runOnce(
  setting: Setting,
  run: number,
  pages: number,
  env: { orm: Orm; db: pg.Client; site: PageSite; redis: Redis; queues: Queues; baseConfig: AppConfig },
): Promise<RunResult> {
  const { orm, db, site, queues } = env;
  const config: AppConfig = {
    ...env.baseConfig,
    clipConcurrency: setting.concurrency,
    extractPoolSize: setting.poolSize,
  };
  const em = orm.em.fork();
  const user: User = newUser(em, { email: `clips-${run}@example.test`, passwordHash: null, language: 'en' });
  await em.flush();

  const enqueueStarted = performance.now();
  for (let n = 0; n < pages; n++)
    await clipUrl({ em: orm.em.fork(), queues, config }, user, `${site.origin}/${run}/${n}`);
  const enqueueSeconds = (performance.now() - enqueueStarted) / 1000;
  const hitsBefore = await site.hits();

  const pool = new CountingPool({ size: setting.poolSize, timeoutMs: config.extractTimeoutMs });
  const cpuStart = process.cpuUsage();
  const mainCpuStart = process.threadCpuUsage();
  const eluStart = performance.eventLoopUtilization();
  let peakRss = process.memoryUsage().rss;
  const started = performance.now();
  const workers: RunningWorkers = await startWorkers(
    {
      config,
      orm,
      redis: env.redis,
      queues,
      storage: createStorage(config),
      compute: createComputePool(config, env.redis),
    },
    { extractionPool: pool },
  );
  const settledCount = async () => {
    const { rows } = await db.query<{ n: string }>(
      'select count(*) as n from note where user_id = $1 and clip_status in ($2, $3)',
      [user.id, ClipStatus.done, ClipStatus.failed],
    );
    return Number(rows[0]?.n);
  };
  let settled = 0;
  let progressAt = performance.now();
  let finished = started;
  while (settled < pages && performance.now() - progressAt < STALL_MS) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const now = await settledCount();
    if (now > settled) {
      settled = now;
      progressAt = finished = performance.now();
    }
  }
  const seconds = (finished - started) / 1000;
  const poolBusy = pool.busyShare();
  const cpu = process.cpuUsage(cpuStart);
  const mainCpu = process.threadCpuUsage(mainCpuStart);
  const elu = performance.eventLoopUtilization(eluStart);
  await workers.close();

  const { rows: states } = await db.query<{ clip_status: number; n: string }>(
    'select clip_status, count(*) as n from note where user_id = $1 group by clip_status',
    [user.id],
  );
  const inState = (status: number) => Number(states.find((s) => s.clip_status === status)?.n ?? 0);
  const { rows: writes } = await db.query<{ what: string; twice: string }>(
    `select what, count(*) filter (where n > 1) as twice from (
       select w.what, w.note_id, count(*) as n from bench_clip_write w join note on note.id = w.note_id
       where note.user_id = $1 group by w.what, w.note_id) per_note group by what`,
    [user.id],
  );
  const storedTwice = writes.reduce((sum, w) => sum + Number(w.twice), 0);
  const { rows: reasons } = await db.query<{ clip_error: string; n: string }>(
    'select clip_error, count(*) as n from note where user_id = $1 and clip_status = $2 group by clip_error',
    [user.id, ClipStatus.failed],
  );
  const hits = await site.hits();
  const result: RunResult = {
    ...setting,
    pages,
    enqueueSeconds,
    seconds,
    done: inState(ClipStatus.done),
    failed: inState(ClipStatus.failed),
    failures: reasons.map((r) => `${r.clip_error} ×${r.n}`).join(', '),
    lost: pages - settled,
    fetchedTwice: hits.repeated - hitsBefore.repeated,
    extractedTwice: [...pool.calls.values()].filter((n) => n > 1).length,
    storedTwice,
    cpuMsPerPage: (cpu.user + cpu.system) / 1000 / pages,
    mainCpuMsPerPage: (mainCpu.user + mainCpu.system) / 1000 / pages,
    mainThreadBusy: elu.utilization,
    poolBusy,
    peakRssMb: peakRss / 1e6,
  };
  // Leaves the next run an empty queue and fewer rows to step over.
  await db.query('delete from note where user_id = $1', [user.id]);
  return result;
}

async function main(): Promise<void> {
  const pages = Number(arg('pages') ?? arg('clips') ?? 1000);
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/margin_bench_clips';
  const prefix = process.env.BENCH_REDIS_PREFIX ?? 'margin_bench_clips';
  const latencyMs = Number(arg('page-latency') ?? 0);
  const site = await startPageSite(latencyMs);
  const baseConfig = loadConfig({
    DATABASE_URL: url,
    REDIS_PREFIX: prefix,
    FETCH_ALLOW_TARGETS: site.target,
    LOG_LEVEL: 'error',
    CLIP_CONCURRENCY: process.env.CLIP_CONCURRENCY,
    EXTRACT_POOL_SIZE: process.env.EXTRACT_POOL_SIZE,
  });
  setLogLevel('error');
  const settings = parseSettings(baseConfig);

  await recreateDatabase(url);
  const orm = await createOrm(url);
  await migrate(orm);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await countWrites(db);
  const redis = createRedis(baseConfig.redisUrl, 'producer');
  await deleteKeys(redis, prefix);
  const queues = createQueues(redis, prefix);

  console.log(
    `clip bench: ${pages} local pages (${corpusIds().length} distinct corpus pages) per run, ` +
      (latencyMs ? `each answered after ${latencyMs} ms, ` : '') +
      `${settings.length} setting(s), ${availableParallelism()} cores`,
  );
  const results: RunResult[] = [];
  for (const [run, setting] of settings.entries()) {
    const result = await runOnce(setting, run, pages, { orm, db, site, redis, queues, baseConfig });
    results.push(result);
    console.log(
      `  concurrency ${setting.concurrency}, pool ${setting.poolSize}: ${(pages / result.seconds).toFixed(1)} pages/s`,
    );
  }

  console.log(
    '\n| concurrency | pool | pages/s | seconds | done | failed | lost | duplicated (fetched/extracted/stored) | cores used | CPU ms/page: all threads | main thread | main thread busy | pool threads busy | peak RSS MB | enqueue s |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.concurrency} | ${r.poolSize} | ${(r.pages / r.seconds).toFixed(1)} | ${r.seconds.toFixed(1)} | ${r.done} | ${r.failed} | ${r.lost} | ${r.fetchedTwice}/${r.extractedTwice}/${r.storedTwice} | ${((r.cpuMsPerPage * r.pages) / r.seconds / 1000).toFixed(2)} | ${r.cpuMsPerPage.toFixed(1)} | ${r.mainCpuMsPerPage.toFixed(1)} | ${(r.mainThreadBusy * 100).toFixed(0)}% | ${(r.poolBusy * 100).toFixed(0)}% | ${r.peakRssMb.toFixed(0)} | ${r.enqueueSeconds.toFixed(1)} |`,
    );
  }

  await closeQueues(queues);
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await db.end();
  await orm.close();
  site.close();
  for (const r of results.filter((r) => r.failed)) {
    console.log(`  concurrency ${r.concurrency}, pool ${r.poolSize}: failed ${r.failures}`);
  }
  const bad = results.filter((r) => r.lost || r.fetchedTwice || r.extractedTwice || r.storedTwice);
  if (bad.length) {
    console.error(`\n${bad.length} run(s) lost or duplicated pages`);
    process.exitCode = 1;
  }
}

if (process.argv.includes('--serve-pages')) await servePages(Number(arg('serve-pages')));
else await main();
