// `npm run bench:hostile-render [-- --seconds 5 --connections 1,10]`: issue 32's finding 1, one
// free user's templates must not stall anyone else. On the API bench's database (server-load.ts;
// seeded if it is not there) the real server runs in a child process (production, no workers) and
// a second, hostile user is made beside the bench user (kept for the next run): 40 notes, an
// Obsidian note template that takes ~0.1 s a note, one note with a 4 MB article, a sync token and
// a session. The bench user's `notes.list` (the client's first page, session cookie) is loaded
// with autocannon at each connection count, first quiet, then while this process keeps every
// render path of the hostile user busy over HTTP: the sync download, `sync.preview`, the save of
// a template too slow to be saved, the Markdown zip and the big note's Markdown. Printed:
// p50/p97.5/p99 and req/s of both phases, the hostile answers by status and reason (budget
// refusals are 422/400/429, never a 5xx), the server's event-loop delay and compute pool tasks in
// each phase from /metrics (scraped once a second in both), and the verdict: at the fewest
// connections (one reader by default, as the budget means), the list's p99 under hostile load
// below 100 ms; at more, the list queues behind itself, so its p99 is shown beside the quiet one.
// Any 5xx or failed list answer fails it too.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Integration, Note, NoteContent, Session, SyncToken, User } from '../../server/db/entities/index.ts';
import { createOrm } from '../../server/db/orm.ts';
import { newUser } from '../../server/domain/auth/auth.service.ts';
import { createSession } from '../../server/domain/auth/session.service.ts';
import { urlHash } from '../../server/domain/notes/clip.service.ts';
import { createSyncToken } from '../../server/domain/sync/tokens.ts';
import { LOGIN_COOKIE_KEY } from '../../src/constants.ts';
import { ClipStatus } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { waitFor } from '../helpers/wait.ts';
import {
  BENCH_URL,
  ensureSeeded,
  flag,
  mutationBody,
  NOTE_LIST_INPUT,
  queryUrl,
  rawRequest,
  setBenchPassword,
  signIn,
  startBenchServer,
  stopChild,
} from './server-load.ts';

const SERVER_PORT = 3934;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIS_PREFIX = `bench-hostile-${process.pid}`;
const METRICS_TOKEN = `bench-${randomBytes(16).toString('hex')}`;

const SECONDS = Number(flag('seconds') ?? 5);
const CONNECTIONS = (flag('connections') ?? '1,10').split(',').map(Number);
const WARMUP_SECONDS = 2;
/** Issue 32's budget for another user's note list while one user's templates run. */
const BUDGET_P99_MS = 100;
/** What Chromium sends; the list is compressed as a browser gets it. */
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

const HOSTILE_EMAIL = 'bench-hostile@example.test';
const HOSTILE_NOTES = 40;
/** About 0.1 s of LiquidJS a render: 40 notes are more than a request's 3 s. */
const SLOW = '{% for i in (1..30000) %}{% assign x = i %}{% endfor %}';
/** The saved note template: every note a sync download or the zip renders is slow. */
const SLOW_NOTE_TEMPLATE = `${SLOW}{{ title }}`;
/** A template a save trial-renders for ~3 s a sample: refused (a render's 1 s, or the request's 3 s), never saved. */
const OVER_BUDGET_TEMPLATE = `{% for i in (1..30) %}${SLOW}{% endfor %}{{ title }}`;
/** A page whose article turns into Markdown slowly: long, with nested inline markup (~4 MB). */
const BIG_ARTICLE = '<div><p><b>bold</b> <i>it</i> <a href="https://x.test/">l</a></p></div>'.repeat(60_000);

// --- the hostile user ------------------------------------------------------------------------

interface Hostile {
  syncToken: string;
  cookie: string;
  bigNoteId: string;
}

/**
 * The hostile user, made on the first run and reused after: their notes (the first with the big
 * article), the slow note template, and this run's sync token and session (earlier runs' gone).
 */
async function hostileUser(): Promise<Hostile> {
  const orm = await createOrm(BENCH_URL, { pool: { min: 0, max: 1 } });
  try {
    const em = orm.em.fork();
    const user =
      (await em.findOne(User, { email: HOSTILE_EMAIL })) ??
      newUser(em, { email: HOSTILE_EMAIL, passwordHash: null, language: 'en' });
    await em.flush();
    await em.nativeDelete(Session, { user });
    await em.nativeDelete(SyncToken, { user });
    const notes = await em.find(Note, { user }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    for (let i = notes.length; i < HOSTILE_NOTES; i++) {
      const url = `https://hostile.bench.example/${i}`;
      const text = `Hostile note ${i}: a few words for the template to print.`;
      const note = em.create(Note, {
        id: newId(),
        user,
        url,
        urlHash: urlHash(url),
        title: `Hostile ${i}`,
        clipStatus: ClipStatus.done,
      });
      em.create(NoteContent, { note, contentHtml: `<p>${text}</p>`, text });
      notes.push(note);
    }
    await em.flush();
    const bigNote = notes[0] as Note;
    const content = await em.findOneOrFail(NoteContent, { note: bigNote });
    content.contentHtml = BIG_ARTICLE;

    const { token: syncToken } = await createSyncToken(em, user, { app: 'obsidian', name: 'bench-hostile' });
    // Saved straight in the row (a save through the app would pass: a sample takes ~0.1 s).
    const integration = await em.findOneOrFail(Integration, { user, app: 'obsidian' });
    integration.settings = { ...integration.settings, templates: { note: SLOW_NOTE_TEMPLATE } };
    const session = await createSession(em, user, { ip: '127.0.0.1', userAgent: 'bench-hostile' });
    await em.flush();
    return { syncToken, cookie: `${LOGIN_COOKIE_KEY}=${session.token}`, bigNoteId: bigNote.id };
  } finally {
    await orm.close();
  }
}

// --- the hostile load ------------------------------------------------------------------------

interface HostileCall {
  name: string;
  call: () => Promise<{ status: number; body: Buffer }>;
}

function hostileCalls(hostile: Hostile): HostileCall[] {
  const session = { cookie: hostile.cookie, 'x-lang': 'en' };
  const post = { ...session, 'content-type': 'application/json' };
  return [
    {
      name: 'sync download',
      call: () =>
        rawRequest(
          SERVER_PORT,
          'POST',
          '/api/sync/v1/download',
          {
            authorization: `Bearer ${hostile.syncToken}`,
            'content-type': 'application/json',
            'x-lang': 'en',
          },
          JSON.stringify({ clientId: 'c_bench_hostile', cursor: null, noteIds: [] }),
        ),
    },
    {
      name: 'sync.preview',
      call: () =>
        rawRequest(
          SERVER_PORT,
          'POST',
          '/trpc/sync.preview?batch=1',
          post,
          mutationBody({ app: 'obsidian' }),
        ),
    },
    {
      name: 'sync.updateSettings',
      call: () =>
        rawRequest(
          SERVER_PORT,
          'POST',
          '/trpc/sync.updateSettings?batch=1',
          post,
          mutationBody({ app: 'obsidian', settings: { templates: { note: OVER_BUDGET_TEMPLATE } } }),
        ),
    },
    {
      name: 'markdown.zip',
      call: () => rawRequest(SERVER_PORT, 'GET', '/api/export/markdown.zip', session),
    },
    {
      name: 'notes.export',
      call: () =>
        rawRequest(
          SERVER_PORT,
          'GET',
          queryUrl('notes.export', { id: hostile.bigNoteId, format: 'markdown' }),
          session,
        ),
    },
  ];
}

/** Why a call was refused, as its answer says: a tRPC message key or the sync API's error code. */
function refusalReason(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8'));
    const trpc = Array.isArray(parsed) ? parsed[0]?.error?.json : undefined;
    return String(trpc?.message ?? parsed.error?.code ?? parsed.error ?? '?');
  } catch {
    return 'not JSON';
  }
}

/** Each hostile call in a loop of its own until stopped; answers counted by call, status and reason. */
function startHostileLoad(calls: HostileCall[]) {
  const outcomes = new Map<string, number>();
  const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  let running = true;
  const loops = calls.map(async ({ name, call }) => {
    while (running) {
      try {
        const { status, body } = await call();
        count(`${name} | ${status}${status < 300 ? '' : ` ${refusalReason(body)}`}`);
      } catch {
        // The zip is streamed: one that fails after its headers is cut short, with no other status.
        count(`${name} | connection closed before the whole answer`);
      }
    }
  });
  return {
    async stop(): Promise<Map<string, number>> {
      running = false;
      await Promise.all(loops);
      return outcomes;
    },
  };
}

// --- the server's metrics --------------------------------------------------------------------

async function scrapeMetrics(): Promise<string | null> {
  const res = await rawRequest(SERVER_PORT, 'GET', '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
  return res.status === 200 ? res.body.toString('utf8') : null;
}

/** Every sample of `name` in a scrape, by its labels (`` for none). */
function samples(metrics: string, name: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of metrics.split('\n')) {
    const match = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (match?.[1] === name) found.set(match[2] ?? '', Number(match[3]));
  }
  return found;
}

/** The compute pool's tasks running at the scrape. */
function tasksRunning(metrics: string): number {
  return samples(metrics, 'compute_tasks').get('{state="running"}') ?? 0;
}

/** Samples once a second, until stopped, whether the compute pool is running a task. */
function samplePoolBusy() {
  let sampling = true;
  const busy = { samples: 0, running: 0 };
  const sampled = (async () => {
    while (sampling) {
      const metrics = await scrapeMetrics();
      if (metrics) {
        busy.samples++;
        if (tasksRunning(metrics) > 0) busy.running++;
      }
      await sleep(1000);
    }
  })();
  return {
    async stop(): Promise<typeof busy> {
      sampling = false;
      await sampled;
      return busy;
    },
  };
}

/** What a counter or histogram gained between two scrapes, by labels. */
function gained(before: string, after: string, name: string): Map<string, number> {
  const was = samples(before, name);
  const delta = new Map<string, number>();
  for (const [labels, value] of samples(after, name)) delta.set(labels, value - (was.get(labels) ?? 0));
  return delta;
}

/** The event loop's delay between two scrapes: ticks, mean, and the bucket holding the 99th percentile. */
function eventLoopDelay(before: string, after: string): string {
  const count = gained(before, after, 'event_loop_delay_seconds_count').get('') ?? 0;
  const sum = gained(before, after, 'event_loop_delay_seconds_sum').get('') ?? 0;
  if (count === 0) return 'no ticks';
  const buckets = [...gained(before, after, 'event_loop_delay_seconds_bucket')]
    .map(([labels, n]) => ({ le: Number(/le="([^"]+)"/.exec(labels)?.[1]), n }))
    .sort((a, b) => a.le - b.le);
  const ms = (seconds: number) => `${(seconds * 1000).toFixed(0)} ms`;
  const p99 = buckets.find((b) => b.n >= count * 0.99)?.le ?? Number.POSITIVE_INFINITY;
  const slowest = buckets.findLast((b) => b.n < count && Number.isFinite(b.le));
  return [
    `${count} ticks, mean ${((sum / count) * 1000).toFixed(1)} ms`,
    `p99 ≤ ${Number.isFinite(p99) ? ms(p99) : '+Inf'}`,
    slowest ? `${count - slowest.n} over ${ms(slowest.le)}` : 'none over the smallest bucket',
  ].join(', ');
}

/** The compute pool's tasks that ended between two scrapes, by task and outcome. */
function computeTasks(before: string, after: string): string {
  const parts = [...gained(before, after, 'compute_tasks_total')]
    .filter(([, n]) => n > 0)
    .map(
      ([labels, n]) => `${labels.replace(/[{}"]/g, '').replace('task=', '').replace(',outcome=', ' ')} ${n}`,
    );
  return parts.length ? parts.join(', ') : 'none';
}

// --- the list's load -------------------------------------------------------------------------

interface ListLoad {
  connections: number;
  reqPerSec: number;
  p50: number;
  p97_5: number;
  p99: number;
  errors: number;
}

async function loadList(
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<ListLoad> {
  const result = await autocannon({
    url: `http://127.0.0.1:${SERVER_PORT}`,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [{ method: 'GET', path: queryUrl('notes.list', NOTE_LIST_INPUT), headers }],
  });
  return {
    connections,
    reqPerSec: result.requests.total / result.duration,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

async function loadAll(headers: Record<string, string>): Promise<ListLoad[]> {
  const loads: ListLoad[] = [];
  for (const connections of CONNECTIONS) loads.push(await loadList(headers, connections, SECONDS));
  return loads;
}

/** Removes the keys this run's server wrote under its Redis prefix. */
async function removeRedisKeys(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}:*`, 'COUNT', 500);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

// --- the run ---------------------------------------------------------------------------------

const userId = await ensureSeeded();
{
  const client = new pg.Client({ connectionString: BENCH_URL });
  await client.connect();
  await setBenchPassword(client, userId).finally(() => client.end());
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-bench-hostile-'));
const server = await startBenchServer(SERVER_PORT, {
  redisPrefix: REDIS_PREFIX,
  dataDir: path.join(work, 'data'),
  env: { METRICS_TOKEN, REDIS_URL },
});

let withinBudget = false;
try {
  // Made once the server has migrated the database.
  const hostile = await hostileUser();
  const listHeaders = {
    cookie: await signIn(SERVER_PORT),
    'x-lang': 'en',
    'trpc-accept': 'application/jsonl',
    'accept-encoding': ACCEPT_ENCODING,
  };
  console.log(
    `\n${os.cpus().length} CPUs (${os.cpus()[0]?.model}), load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `notes.list (100 rows) for ${SECONDS} s at ${CONNECTIONS.join(', ')} connections, quiet then beside the hostile user's renders, after ${WARMUP_SECONDS} s warm-up\n`,
  );

  await loadList(listHeaders, CONNECTIONS.at(-1) ?? 10, WARMUP_SECONDS);
  const atStart = await scrapeMetrics();
  // Both phases scrape /metrics once a second, so the scrapes weigh on both alike.
  const quietSampler = samplePoolBusy();
  const quiet = await loadAll(listHeaders);
  const quietPoolBusy = await quietSampler.stop();
  const afterQuiet = await scrapeMetrics();

  const attack = startHostileLoad(hostileCalls(hostile));
  let hostileLoads: ListLoad[];
  let outcomes: Map<string, number>;
  let beforeHostile: string | null = null;
  let afterHostile: string | null = null;
  let poolBusy = { samples: 0, running: 0 };
  try {
    // Measured once the pool is busy with the hostile user's work.
    if (afterQuiet !== null) {
      await waitFor(
        async () => {
          const metrics = await scrapeMetrics();
          return metrics && tasksRunning(metrics) > 0 ? true : undefined;
        },
        30_000,
        'the compute pool to run a hostile task',
      );
    }
    beforeHostile = await scrapeMetrics();
    const sampler = samplePoolBusy();
    hostileLoads = await loadAll(listHeaders);
    poolBusy = await sampler.stop();
    afterHostile = await scrapeMetrics();
  } finally {
    outcomes = await attack.stop();
  }

  console.log('phase   | conns |  req/s | p50 ms | p97.5 ms | p99 ms | errors');
  console.log('--------|-------|--------|--------|----------|--------|-------');
  for (const [phase, loads] of [
    ['quiet', quiet],
    ['hostile', hostileLoads],
  ] as const) {
    for (const l of loads) {
      console.log(
        [
          phase.padEnd(7),
          String(l.connections).padStart(5),
          l.reqPerSec.toFixed(0).padStart(6),
          String(l.p50).padStart(6),
          String(l.p97_5).padStart(8),
          String(l.p99).padStart(6),
          String(l.errors).padStart(6),
        ].join(' | '),
      );
    }
  }

  console.log('\nhostile call        | answers | status and reason');
  console.log('--------------------|---------|------------------');
  for (const [outcome, n] of [...outcomes].sort(([a], [b]) => a.localeCompare(b))) {
    const [name, status] = outcome.split(' | ');
    console.log(`${(name ?? '').padEnd(19)} | ${String(n).padStart(7)} | ${status}`);
  }
  const serverErrors = [...outcomes]
    .filter(([outcome]) => /\| 5\d\d/.test(outcome))
    .reduce((sum, [, n]) => sum + n, 0);

  if (atStart && afterQuiet && beforeHostile && afterHostile) {
    console.log(`\nevent loop delay, quiet:   ${eventLoopDelay(atStart, afterQuiet)}`);
    console.log(`event loop delay, hostile: ${eventLoopDelay(beforeHostile, afterHostile)}`);
    console.log(
      `compute pool running a task (sampled once a second): quiet ${quietPoolBusy.running} of ${quietPoolBusy.samples}, hostile ${poolBusy.running} of ${poolBusy.samples}`,
    );
    console.log(`compute pool tasks ended, hostile phase: ${computeTasks(beforeHostile, afterHostile)}`);
  } else {
    console.log('\n/metrics did not answer: no event loop delay or compute pool figures');
  }

  const listErrors = hostileLoads.reduce((sum, l) => sum + l.errors, 0);
  console.log('');
  for (const [i, h] of hostileLoads.entries()) {
    const q = quiet[i] as ListLoad;
    console.log(
      `${h.connections} connections: notes.list p99 ${h.p99} ms under hostile load, ${(h.p99 / Math.max(q.p99, 1)).toFixed(1)}× the quiet ${q.p99} ms`,
    );
  }
  const reader = hostileLoads.reduce((fewest, l) => (l.connections < fewest.connections ? l : fewest));
  withinBudget = reader.p99 < BUDGET_P99_MS && serverErrors === 0 && listErrors === 0;
  console.log(
    `hostile answers: ${[...outcomes.values()].reduce((a, b) => a + b, 0)}, of them 5xx: ${serverErrors}; failed list answers: ${listErrors}\n` +
      `verdict: ${withinBudget ? 'within' : 'OVER'} budget — notes.list p99 ${reader.p99} ms at ${reader.connections} connection${reader.connections === 1 ? '' : 's'} under hostile load (budget: under ${BUDGET_P99_MS} ms), ${serverErrors} 5xx, ${listErrors} failed list answers`,
  );
} finally {
  await stopChild(server);
  await removeRedisKeys();
  fs.rmSync(work, { recursive: true, force: true });
}
if (!withinBudget) process.exitCode = 1;
