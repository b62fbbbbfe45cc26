// `npm run bench:openapi [-- --seconds 5 --rounds 3 --connections 1,10 --warmup 2
// --encoding identity --cpu-prof DIR --profile-seconds 10]`: the Open API's note list against
// the tRPC list the client uses, on the same 100 rows of a user with 10,000 notes (the API
// bench's database, server-load.ts; seeded if it is not there). The real server runs in a child
// process (production, no workers). `GET /openapi/v1/notes?limit=100` with a bearer token and
// `notes.list` as the client sends it (streaming batch link, session cookie), both with a
// browser's Accept-Encoding, take turns in each round (the first to go alternates), so the
// machine's drift falls on both. Each answer's latency is kept, for p50/p95 over all rounds.
// Issue 17's budget: the API within 1.5× the tRPC list's latency.
// The token's rate-limit window (120 a minute) is set far below zero before the loads: every
// call still counts itself in Redis and answers the RateLimit-* headers, none is refused.
// With --cpu-prof DIR the server runs under `node --cpu-prof`, and after the rounds an API-only
// and a tRPC-only load (10 connections) get their self-time tops printed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import pg from 'pg';
import { User } from '../../server/db/entities/index.ts';
import { createOrm } from '../../server/db/orm.ts';
import { createApiToken } from '../../server/domain/openapi/api-tokens.ts';
import { DEFAULT_MEMBERSHIP_CONFIG } from '../../server/membership-config.ts';
import { formatTop, profileTop, readProfile } from './cpu-profile-top.ts';
import {
  BENCH_URL,
  type Child,
  cpuMsOf,
  ensureSeeded,
  flag,
  LIST_LIMIT,
  NOTE_LIST_INPUT,
  PAGES,
  queryUrl,
  rawRequest,
  setBenchPassword,
  signIn,
  startBenchServer,
  stopChild,
} from './server-load.ts';

const SERVER_PORT = 3933;
const TOKEN_NAME = 'bench-openapi';
/** The bench server runs with membership off: everyone has the API. */
const OPEN_TO_ALL = { membership: false, membershipConfig: DEFAULT_MEMBERSHIP_CONFIG };

const SECONDS = Number(flag('seconds') ?? 5);
const ROUNDS = Number(flag('rounds') ?? 3);
const WARMUP_SECONDS = Number(flag('warmup') ?? 2);
const CONNECTIONS = (flag('connections') ?? '1,10').split(',').map(Number);
const ACCEPT_ENCODING = flag('encoding') ?? 'gzip, deflate, br, zstd';
const CPU_PROF_DIR = flag('cpu-prof');
const PROFILE_SECONDS = Number(flag('profile-seconds') ?? 10);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIS_PREFIX = `bench-openapi-${process.pid}`;

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
}

// --- the account -------------------------------------------------------------------------

/** A read token for the bench user (earlier runs' revoked), made as the settings page makes one. */
async function benchToken(userId: number): Promise<{ token: string; id: number }> {
  const client = new pg.Client({ connectionString: BENCH_URL });
  await client.connect();
  try {
    await setBenchPassword(client, userId);
    await client.query(
      'update api_token set revoked_at = now() where user_id = $1 and name = $2 and revoked_at is null',
      [userId, TOKEN_NAME],
    );
  } finally {
    await client.end();
  }
  const orm = await createOrm(BENCH_URL, { pool: { min: 0, max: 1 } });
  try {
    const em = orm.em.fork();
    const user = await em.findOneOrFail(User, userId);
    const { token, view } = await createApiToken(em, OPEN_TO_ALL, user, {
      name: TOKEN_NAME,
      scopes: ['read'],
      expiresInDays: 7,
    });
    return { token, id: view.id };
  } finally {
    await orm.close();
  }
}

/** The token's window counter as caller.ts keys it, set so low that no load reaches the limit. */
async function liftRateLimit(redis: Redis, tokenId: number): Promise<string> {
  const key = `${REDIS_PREFIX}:rl:openapi:token:${tokenId}`;
  await redis.set(key, String(-(2 ** 50)), 'EX', 3600);
  return key;
}

// --- the two answers -----------------------------------------------------------------------

/** The note ids a list answer holds: the API's envelope, or tRPC's batch (superjson or plain). */
function listedIds(body: Buffer, kind: 'api' | 'trpc'): string[] {
  const parsed = JSON.parse(body.toString('utf8'));
  const page =
    kind === 'api' ? parsed.data : (parsed[0]?.result?.data?.json ?? parsed[0]?.result?.data ?? null);
  return (page?.items ?? []).map((item: { id: string }) => item.id);
}

/** Both answer the same 100 notes; their sizes as sent plain and on the wire. */
async function checkSameRows(api: Target, trpc: Target): Promise<string[]> {
  const plain = (target: Target, extra: Record<string, string> = {}) =>
    rawRequest(SERVER_PORT, 'GET', target.url, {
      ...target.headers,
      ...extra,
      'accept-encoding': 'identity',
    });
  const apiAnswer = await plain(api);
  // One JSON answer to parse; the load itself streams, as the client does.
  const { 'trpc-accept': _, ...batchHeaders } = trpc.headers;
  const trpcAnswer = await plain({ ...trpc, headers: batchHeaders });
  for (const [target, answer] of [
    [api, apiAnswer],
    [trpc, trpcAnswer],
  ] as const) {
    if (answer.status !== 200) throw new Error(`${target.name} answered ${answer.status}: ${answer.body}`);
  }
  const apiIds = listedIds(apiAnswer.body, 'api');
  const trpcIds = listedIds(trpcAnswer.body, 'trpc');
  if (apiIds.length !== LIST_LIMIT || apiIds.join() !== trpcIds.join())
    throw new Error(`not the same ${LIST_LIMIT} rows: API ${apiIds.length}, tRPC ${trpcIds.length}`);

  const lines: string[] = [];
  for (const target of [api, trpc]) {
    const identity = await plain(target);
    const wire = await rawRequest(SERVER_PORT, 'GET', target.url, {
      ...target.headers,
      'accept-encoding': ACCEPT_ENCODING,
    });
    lines.push(
      `${target.name.padEnd(6)} | ${String(identity.body.length).padStart(8)} | ${`${wire.body.length} ${wire.headers['content-encoding'] ?? 'identity'}`.padEnd(12)} | ${target.url.slice(0, 60)}`,
    );
  }
  return lines;
}

// --- loads ---------------------------------------------------------------------------------

interface Load {
  latencies: number[];
  seconds: number;
  errors: number;
  cpuMs: number | null;
  fromMs: number;
  toMs: number;
}

async function load(server: Child, target: Target, connections: number, seconds: number): Promise<Load> {
  const fromMs = performance.now() - server.startedAt;
  const cpuBefore = cpuMsOf(server.process.pid);
  const latencies: number[] = [];
  let errors = 0;
  const run = autocannon({
    url: `http://127.0.0.1:${SERVER_PORT}`,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [
      { method: 'GET', path: target.url, headers: { ...target.headers, 'accept-encoding': ACCEPT_ENCODING } },
    ],
  });
  run.on('response', (_client, status, _bytes, ms) => {
    if (status === 200) latencies.push(ms);
    else errors++;
  });
  const result = await run;
  const cpuAfter = cpuMsOf(server.process.pid);
  return {
    latencies,
    seconds: result.duration,
    errors: errors + result.errors + result.timeouts,
    cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    fromMs,
    toMs: performance.now() - server.startedAt,
  };
}

interface Summary {
  reqPerSec: number;
  p50: number;
  p95: number;
  errors: number;
  cpuPerRequest: number | null;
}

function summarise(loads: Load[]): Summary {
  const all = loads.flatMap((l) => l.latencies).sort((a, b) => a - b);
  const at = (q: number) => all[Math.min(all.length - 1, Math.floor(q * all.length))] ?? 0;
  const requests = all.length;
  const cpu = loads.some((l) => l.cpuMs === null) ? null : loads.reduce((sum, l) => sum + (l.cpuMs ?? 0), 0);
  return {
    reqPerSec: requests / loads.reduce((sum, l) => sum + l.seconds, 0),
    p50: at(0.5),
    p95: at(0.95),
    errors: loads.reduce((sum, l) => sum + l.errors, 0),
    cpuPerRequest: cpu === null ? null : cpu / Math.max(requests, 1),
  };
}

/**
 * Stops the server once the answers autocannon walked away from at the end of a load have
 * finished (else they fail as the server closes its database under them).
 */
async function settleAndStop(server: Child): Promise<void> {
  if (server.process.exitCode !== null) return;
  await setTimeout(1000);
  await stopChild(server);
}

// --- the run -------------------------------------------------------------------------------

const userId = await ensureSeeded();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-bench-openapi-'));
if (CPU_PROF_DIR) fs.mkdirSync(CPU_PROF_DIR, { recursive: true });
const redis = new Redis(REDIS_URL);
// The server migrates the database as it starts (the API's tables may be newer than the seed).
const server = await startBenchServer(SERVER_PORT, {
  redisPrefix: REDIS_PREFIX,
  dataDir: path.join(work, 'data'),
  cpuProfDir: CPU_PROF_DIR,
});
let limitKey: string | undefined;
try {
  const { token, id: tokenId } = await benchToken(userId);
  limitKey = await liftRateLimit(redis, tokenId);
  const api: Target = {
    name: 'API',
    url: `/openapi/v1/notes?limit=${LIST_LIMIT}`,
    headers: { authorization: `Bearer ${token}` },
  };
  const trpc: Target = {
    name: 'tRPC',
    url: queryUrl('notes.list', NOTE_LIST_INPUT),
    headers: { cookie: await signIn(SERVER_PORT), 'x-lang': 'en', 'trpc-accept': 'application/jsonl' },
  };
  const sizes = await checkSameRows(api, trpc);

  console.log(
    `\n${os.cpus().length} CPUs (${os.cpus()[0]?.model}), load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${PAGES} notes, the newest ${LIST_LIMIT} listed by both`,
  );
  console.log(
    `${ROUNDS} rounds of ${SECONDS} s each per connection count, API and tRPC taking turns, after ${WARMUP_SECONDS} s warm-up each; Accept-Encoding: ${ACCEPT_ENCODING}\n`,
  );
  console.log('       |    bytes | on the wire  | request');
  console.log('-------|----------|--------------|--------');
  for (const line of sizes) console.log(line);

  const rows: string[] = [];
  const verdicts: boolean[] = [];
  for (const connections of CONNECTIONS) {
    if (WARMUP_SECONDS > 0) {
      await load(server, api, connections, WARMUP_SECONDS);
      await load(server, trpc, connections, WARMUP_SECONDS);
    }
    const loads = new Map<Target, Load[]>([
      [api, []],
      [trpc, []],
    ]);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [api, trpc] : [trpc, api];
      for (const target of order) loads.get(target)?.push(await load(server, target, connections, SECONDS));
    }
    const a = summarise(loads.get(api) ?? []);
    const t = summarise(loads.get(trpc) ?? []);
    const cpu = (ms: number | null) => (ms === null ? '-' : ms.toFixed(2));
    const row = (name: string, s: Summary) =>
      [
        name.padEnd(14),
        String(connections).padStart(5),
        s.reqPerSec.toFixed(0).padStart(6),
        s.p50.toFixed(2).padStart(7),
        s.p95.toFixed(2).padStart(7),
        String(s.errors).padStart(6),
        cpu(s.cpuPerRequest).padStart(8),
      ].join(' | ');
    rows.push(row('API', a), row('tRPC', t));
    const ratio = (x: number, y: number) => (y ? `${(x / y).toFixed(2)}×` : '-');
    rows.push(
      [
        'API / tRPC'.padEnd(14),
        String(connections).padStart(5),
        ratio(t.reqPerSec, a.reqPerSec).padStart(6),
        ratio(a.p50, t.p50).padStart(7),
        ratio(a.p95, t.p95).padStart(7),
        ''.padStart(6),
        (a.cpuPerRequest !== null && t.cpuPerRequest
          ? ratio(a.cpuPerRequest, t.cpuPerRequest)
          : '-'
        ).padStart(8),
      ].join(' | '),
    );
    verdicts.push(a.p50 <= 1.5 * t.p50 && a.p95 <= 1.5 * t.p95);
  }
  console.log('\n               | conns |  req/s |  p50 ms |  p95 ms | errors | cpu ms/r');
  console.log('---------------|-------|--------|---------|---------|--------|---------');
  for (const row of rows) console.log(row);
  console.log(
    '\nAPI / tRPC: latency and CPU as the API’s over tRPC’s, req/s as tRPC’s over the API’s (above 1: the API is slower).\n' +
      'p50/p95 over every answer of all rounds; cpu ms/r: CPU of the server process (not PostgreSQL) per answer.',
  );
  console.log(
    `budget (API p50 and p95 within 1.5× tRPC's): ${CONNECTIONS.map((c, i) => `${verdicts[i] ? 'met' : 'MISSED'} at ${c} connection(s)`).join(', ')}`,
  );

  if (CPU_PROF_DIR) {
    const apiLoad = await load(server, api, 10, PROFILE_SECONDS);
    const trpcLoad = await load(server, trpc, 10, PROFILE_SECONDS);
    await settleAndStop(server); // the profile is written as the server exits
    const file = fs
      .readdirSync(CPU_PROF_DIR)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(CPU_PROF_DIR, f))
      .sort((x, y) => fs.statSync(y).mtimeMs - fs.statSync(x).mtimeMs)[0];
    if (!file) throw new Error(`no .cpuprofile in ${CPU_PROF_DIR}`);
    const profile = readProfile(file);
    for (const [name, l] of [
      ['API', apiLoad],
      ['tRPC', trpcLoad],
    ] as const) {
      console.log(
        `\n${name} alone, 10 connections, ${PROFILE_SECONDS} s: ${l.latencies.length} answers (${file}, ${l.fromMs.toFixed(0)}–${l.toMs.toFixed(0)} ms)\n`,
      );
      console.log(formatTop(profileTop(profile, l.fromMs, l.toMs), 15));
    }
  }
} finally {
  await settleAndStop(server);
  if (limitKey) await redis.del(limitKey);
  redis.disconnect();
  fs.rmSync(work, { recursive: true, force: true });
}
