// `npm run bench:sync [-- --runs 50]`: the pull API through its real HTTP route. Seeds
// BENCH_DATABASE_URL (default margin_bench_sync) with one user, 10,000 notes and 50,000
// highlights unless it already holds them, serves the app on a loopback port in this process,
// connects an Obsidian token and syncs everything once (the first sync, timed as a whole). Then,
// per run, one highlight's annotation changes and the next incremental `/api/sync/v1/download`
// is timed: p50/p95 against the budget of 50 ms.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { createApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { User } from '../../server/db/entities/index.ts';
import { createOrm, migrate } from '../../server/db/orm.ts';
import { createComputePool } from '../../server/deps.ts';
import { createSyncToken } from '../../server/domain/sync/tokens.ts';
import { closeQueues, createQueues, createRedis } from '../../server/queue.ts';
import { createStorage } from '../../server/storage/index.ts';
import type { SyncDownloadResponse, SyncInitResponse } from '../../src/schemas/sync.ts';
import { percentiles } from './bench-db.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BENCH_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/margin_bench_sync';
const NOTES = 10_000;
const HIGHLIGHTS = 50_000;
const EMAIL = 'bench@example.test';
const BUDGET_MS = 50;
const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag >= 0 ? Number(process.argv[runsFlag + 1]) : 50;

async function seeded(): Promise<boolean> {
  const client = new pg.Client({ connectionString: BENCH_URL });
  try {
    await client.connect();
    const { rows } = await client.query<{ notes: number; highlights: number }>(
      `select (select count(*)::int from note where user_id = u.id) notes,
         (select count(*)::int from highlight where user_id = u.id) highlights
       from "user" u where u.email = $1`,
      [EMAIL],
    );
    return (rows[0]?.notes ?? 0) >= NOTES && (rows[0]?.highlights ?? 0) >= HIGHLIGHTS;
  } catch {
    return false; // no such database yet
  } finally {
    await client.end().catch(() => {});
  }
}

if (!(await seeded())) {
  console.log(`seeding ${NOTES} notes and ${HIGHLIGHTS} highlights into ${BENCH_URL} …`);
  const seed = spawn(
    process.execPath,
    [path.join(ROOT, 'test/bench/seed.ts'), '--pages', String(NOTES), '--highlights', String(HIGHLIGHTS)],
    { stdio: 'inherit', env: { ...process.env, BENCH_DATABASE_URL: BENCH_URL } },
  );
  const code = await new Promise<number | null>((resolve) => seed.once('exit', resolve));
  if (code !== 0) throw new Error(`seeding failed (exit ${code})`);
}

const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DATABASE_URL: BENCH_URL,
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  REDIS_PREFIX: `bench-sync-${randomBytes(4).toString('hex')}`,
});
const orm = await createOrm(BENCH_URL);
await migrate(orm);
const redis = createRedis(config.redisUrl, 'producer');
const queues = createQueues(redis, config.redisPrefix);
const compute = createComputePool(config, redis);
const server: Server = createApp({
  config,
  orm,
  redis,
  queues,
  storage: createStorage(config),
  compute,
}).listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/sync/v1`;

const em = orm.em.fork();
const user = await em.findOneOrFail(User, { email: EMAIL });
// A fresh integration state each run: earlier runs' tokens and cursor do not matter.
await em.execute(`delete from integration where user_id = ? and app = 'obsidian'`, [user.id]);
const { token } = await createSyncToken(em, user, { app: 'obsidian', name: 'bench' });
const clientId = `bench_${randomBytes(8).toString('hex')}`;

async function post<T>(call: string, body: unknown): Promise<T> {
  const res = await fetch(`${base}${call}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${call}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

// The first sync: everything, as the plugin pages through it.
let started = performance.now();
const init = await post<SyncInitResponse>('/init', { clientId, fromStart: true });
let cursor = init.cursor;
let sent = 0;
let calls = 0;
for (;;) {
  const batch = await post<SyncDownloadResponse>('/download', { clientId, cursor });
  calls++;
  sent += batch.notes.length;
  const moved = batch.cursor !== cursor;
  cursor = batch.cursor;
  if (!batch.hasMore || !moved) break;
}
await post('/ack', { clientId, cursor });
const firstSeconds = (performance.now() - started) / 1000;
console.log(
  `first sync: ${sent} of ${init.totalNotes} notes in ${calls} downloads, ${firstSeconds.toFixed(1)} s (${((firstSeconds * 1000) / calls).toFixed(0)} ms a download)`,
);

// One changed note, then the incremental download that brings it.
const raw = new pg.Client({ connectionString: BENCH_URL });
await raw.connect();
const { rows: targets } = await raw.query<{ id: string; note_id: string }>(
  `select h.id, h.note_id from highlight h join note n on n.id = h.note_id
   where h.user_id = $1 and n.trashed_at is null order by h.id limit 200`,
  [user.id],
);
let round = 0;

/**
 * Waits (untimed) until a change can be exported: the engine reads only changes older than every
 * transaction still running, and on a shared PostgreSQL any database's transaction counts.
 */
async function exportable(xid: string): Promise<void> {
  for (;;) {
    const { rows } = await raw.query<{ ok: boolean }>(
      'select $1::xid8 < pg_snapshot_xmin(pg_current_snapshot()) as ok',
      [xid],
    );
    if (rows[0]?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
const download = await percentiles(async () => {
  const target = targets[round++ % targets.length]!;
  const { rows } = await raw.query<{ xid: string }>(
    'update highlight set annotation = $1 where id = $2 returning change_xid::text as xid',
    [`bench ${round} ${Date.now()}`, target.id],
  );
  await exportable(rows[0]!.xid);
  started = performance.now();
  const batch = await post<SyncDownloadResponse>('/download', { clientId, cursor });
  const ms = performance.now() - started;
  if (batch.notes.length !== 1 || batch.notes[0]?.id !== target.note_id) {
    throw new Error(
      `expected the changed note ${target.note_id}, got ${batch.notes.map((n) => n.id).join(',')}`,
    );
  }
  cursor = batch.cursor;
  return ms;
}, RUNS);
await post('/ack', { clientId, cursor });

const verdict = download.p95 <= BUDGET_MS ? 'within' : 'OVER';
console.log(
  `incremental download, 1 note changed (${RUNS} runs): p50 ${download.p50.toFixed(1)} ms, p95 ${download.p95.toFixed(1)} ms — ${verdict} the ${BUDGET_MS} ms budget`,
);

await raw.end();
server.closeAllConnections();
server.close();
await closeQueues(queues);
await redis.quit();
await compute.close();
await orm.close();
if (download.p95 > BUDGET_MS) process.exitCode = 1;
