// `npm run bench:api [-- --seconds 5 --rounds 3 --connections 10,50 --only notes.list --no-stream
// --encoding identity --cpu-prof DIR]`: the HTTP API under load. Seeds BENCH_DATABASE_URL
// (default margin_bench_api) with one user, 10,000 notes and 50,000 highlights unless it already
// holds them, starts the real server in a child process (production, no workers) and signs in,
// then runs autocannon against the note list, a search, a note's highlights (what the reader
// loads) and a highlight create, each at 10 and 50 connections. In the same run a bare Express 5
// app (bare-express.ts, another child) answers the same requests with the very bytes and headers
// the server returned, through the same compression setting; each path's req/s as a share of the
// bare app's is the figure to watch, with the CPU each process spends per request beside it.
// Requests are what the client sends: queries through tRPC's streaming batch link, mutations
// through its batch link, one call each, a browser's Accept-Encoding. With --cpu-prof DIR the
// server runs under `node --cpu-prof` and its self-time tops over the measured loads are printed.
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { CoreType } from '../../src/enums.ts';
import type { CapturedResponse } from './bare-express.ts';
import { formatTop, profileTop, readProfile } from './cpu-profile-top.ts';
import {
  BENCH_URL,
  type Child,
  cpuMsOf,
  ensureSeeded,
  flag,
  LIST_LIMIT,
  mutationBody,
  NOTE_LIST_INPUT,
  queryUrl,
  rawRequest,
  setBenchPassword,
  signIn,
  startBenchServer,
  startChild,
  stopChild,
} from './server-load.ts';

const SERVER_PORT = 3931;
const BARE_PORT = 3932;

/** What Chromium sends (the server picks brotli when it may); --encoding identity: no compression. */
const ACCEPT_ENCODING = flag('encoding') ?? 'gzip, deflate, br, zstd';
/** Highlight ids this bench creates start with it, so the next run can remove them first. */
const CREATED_PREFIX = 'benchapi';

const SECONDS = Number(flag('seconds') ?? 5);
/** Rounds of server-then-bare runs per path and connection count: the machine's drift hits both. */
const ROUNDS = Number(flag('rounds') ?? 3);
const WARMUP_SECONDS = Number(flag('warmup') ?? 3);
const CONNECTIONS = (flag('connections') ?? '10,50').split(',').map(Number);
const ONLY = flag('only')?.split(',');
const CPU_PROF_DIR = flag('cpu-prof');
/** --no-stream: queries as httpBatchLink sends them (one JSON answer), as the client did before. */
const STREAM_QUERIES = !process.argv.includes('--no-stream');

// --- the database -------------------------------------------------------------------------

interface Fixture {
  /** The note with the most highlights: the reader's heaviest ordinary load. */
  readerNote: { id: string; highlights: number };
  /** Notes highlights are created on, each with a passage of its text. */
  targets: { noteId: string; exact: string; prefix: string; suffix: string; start: number }[];
}

/** Signs the bench user in with a known password, and removes what earlier runs created. */
async function prepare(userId: number): Promise<Fixture> {
  const client = new pg.Client({ connectionString: BENCH_URL });
  await client.connect();
  try {
    await setBenchPassword(client, userId);
    const removed = await client.query<{ note_id: string }>(
      'delete from highlight where user_id = $1 and id like $2 returning note_id',
      [userId, `${CREATED_PREFIX}%`],
    );
    const touched = [...new Set(removed.rows.map((r) => r.note_id))];
    if (touched.length) {
      await client.query(
        `update note n set highlight_count = (select count(*) from highlight h
           where h.note_id = n.id and h.core_type in (${CoreType.highlight}, ${CoreType.image}))
         where n.id = any($1)`,
        [touched],
      );
    }
    const reader = await client.query<{ id: string; highlight_count: number }>(
      `select id, highlight_count from note where user_id = $1 and trashed_at is null
       order by highlight_count desc, id limit 1`,
      [userId],
    );
    const readerNote = reader.rows[0];
    if (!readerNote) throw new Error('no note to read');
    const notes = await client.query<{ note_id: string; text: string }>(
      `select c.note_id, c.text from note_content c join note n on n.id = c.note_id
       where n.user_id = $1 and n.id <> $2 and length(c.text) > 200 order by n.id limit 200`,
      [userId, readerNote.id],
    );
    const start = 40;
    const targets = notes.rows.map((row) => ({
      noteId: row.note_id,
      start,
      exact: row.text.slice(start, start + 60),
      prefix: row.text.slice(0, start).slice(-32),
      suffix: row.text.slice(start + 60, start + 92),
    }));
    return { readerNote: { id: readerNote.id, highlights: readerNote.highlight_count }, targets };
  } finally {
    await client.end();
  }
}

// --- processes ------------------------------------------------------------------------------

// --- requests -------------------------------------------------------------------------------

interface BenchPath {
  name: string;
  what: string;
  method: 'GET' | 'POST';
  url: string;
  /** For a mutation: a new body each time it is called (a create must not repeat). */
  body?: () => string;
}

function benchPaths(fixture: Fixture): BenchPath[] {
  const runId = Date.now().toString(36);
  let created = 0;
  const createBody = () => {
    const n = created++;
    const target = fixture.targets[n % fixture.targets.length] as Fixture['targets'][number];
    return mutationBody({
      id: `${CREATED_PREFIX}${runId}-${n}`,
      noteId: target.noteId,
      coreType: CoreType.highlight,
      text: target.exact,
      slotId: 1 + (n % 6),
      style: 1,
      selectors: {
        quote: {
          type: 'TextQuoteSelector',
          exact: target.exact,
          prefix: target.prefix,
          suffix: target.suffix,
        },
        position: {
          type: 'TextPositionSelector',
          start: target.start,
          end: target.start + target.exact.length,
        },
      },
      tags: [],
    });
  };
  const list = NOTE_LIST_INPUT;
  return [
    {
      name: 'notes.list',
      what: `All, newest first, ${LIST_LIMIT} rows (the client's page)`,
      method: 'GET',
      url: queryUrl('notes.list', list),
    },
    {
      name: 'notes.list q',
      what: `search "用户体验" (4 CJK characters), ${LIST_LIMIT} rows`,
      method: 'GET',
      url: queryUrl('notes.list', { ...list, q: '用户体验' }),
    },
    {
      name: 'highlights.byNote',
      what: `the reader's highlights of the note with the most (${fixture.readerNote.highlights})`,
      method: 'GET',
      url: queryUrl('highlights.byNote', { id: fixture.readerNote.id }),
    },
    {
      name: 'highlights.create',
      what: `a new highlight with selectors, on one of ${fixture.targets.length} notes in turn`,
      method: 'POST',
      url: '/trpc/highlights.create?batch=1',
      body: createBody,
    },
  ];
}

/** Headers a captured response is replayed with: not the ones about the connection or encoding. */
const NOT_REPLAYED = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
  'vary',
]);

function replayedHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NOT_REPLAYED.has(name)) continue;
    kept[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

interface Captured {
  replay: CapturedResponse;
  bytes: number;
  wireBytes: number;
  encoding: string;
}

/** The server's answer to one call of `path`: as the bare app will replay it, and its sizes. */
async function capture(path: BenchPath, headers: Record<string, string>): Promise<Captured> {
  const send = (encoding: string) =>
    rawRequest(
      SERVER_PORT,
      path.method,
      path.url,
      { ...headers, 'accept-encoding': encoding },
      path.body?.(),
    );
  const plain = await send('identity');
  if (plain.status !== 200) throw new Error(`${path.name} answered ${plain.status}: ${plain.body}`);
  const wire = await send(ACCEPT_ENCODING);
  return {
    replay: {
      method: path.method,
      url: path.url,
      status: plain.status,
      headers: replayedHeaders(plain.headers),
      body: plain.body.toString('base64'),
    },
    bytes: plain.body.length,
    wireBytes: wire.body.length,
    encoding: String(wire.headers['content-encoding'] ?? 'identity'),
  };
}

interface Load {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU the answering process used (all its threads), in ms; null where /proc is not there. */
  cpuMs: number | null;
  /** Milliseconds since the process started, for cutting its CPU profile to the load. */
  fromMs: number;
  toMs: number;
}

async function load(
  target: { port: number; child: Child },
  path: BenchPath,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<Load> {
  const fromMs = performance.now() - target.child.startedAt;
  const cpuBefore = cpuMsOf(target.child.process.pid);
  const result: Result = await autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        method: path.method,
        path: path.url,
        headers: { ...headers, 'accept-encoding': ACCEPT_ENCODING },
        ...(path.body && { setupRequest: (request) => ({ ...request, body: path.body?.() }) }),
      },
    ],
  });
  const cpuAfter = cpuMsOf(target.child.process.pid);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    fromMs,
    toMs: performance.now() - target.child.startedAt,
  };
}

interface Combined {
  reqPerSec: number;
  /** The median round's. */
  p50: number;
  /** The worst round's. */
  p99: number;
  errors: number;
  /** CPU of the answering process per answered request, in ms. */
  cpuPerRequest: number | null;
}

function combine(loads: Load[]): Combined {
  const p50s = loads.map((l) => l.p50).sort((a, b) => a - b);
  return {
    reqPerSec: loads.reduce((sum, l) => sum + l.requests, 0) / loads.reduce((sum, l) => sum + l.seconds, 0),
    p50: p50s[Math.floor(p50s.length / 2)] ?? 0,
    p99: Math.max(...loads.map((l) => l.p99)),
    errors: loads.reduce((sum, l) => sum + l.errors, 0),
    cpuPerRequest: loads.some((l) => l.cpuMs === null)
      ? null
      : loads.reduce((sum, l) => sum + (l.cpuMs ?? 0), 0) /
        Math.max(
          1,
          loads.reduce((sum, l) => sum + l.requests, 0),
        ),
  };
}

// --- the run --------------------------------------------------------------------------------

const userId = await ensureSeeded();
const fixture = await prepare(userId);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-bench-api-'));
if (CPU_PROF_DIR) fs.mkdirSync(CPU_PROF_DIR, { recursive: true });

const server = await startBenchServer(SERVER_PORT, {
  redisPrefix: `bench-api-${process.pid}`,
  dataDir: path.join(work, 'data'),
  cpuProfDir: CPU_PROF_DIR,
});

let bare: Child | undefined;
try {
  const headers = { cookie: await signIn(SERVER_PORT), 'x-lang': 'en' };
  // As client/trpc.ts sends them: queries through httpBatchStreamLink (JSON lines), mutations
  // through httpBatchLink (one JSON answer).
  const queryHeaders = STREAM_QUERIES ? { ...headers, 'trpc-accept': 'application/jsonl' } : headers;
  const postHeaders = { ...headers, 'content-type': 'application/json' };
  const paths = benchPaths(fixture).filter((p) => !ONLY || ONLY.includes(p.name));
  const headersOf = (p: BenchPath) => (p.method === 'POST' ? postHeaders : queryHeaders);

  const captured = new Map<string, Captured>();
  for (const p of paths) captured.set(p.name, await capture(p, headersOf(p)));
  const capturedFile = path.join(work, 'captured.json');
  fs.writeFileSync(capturedFile, JSON.stringify([...captured.values()].map((c) => c.replay)));
  bare = await startChild('test/bench/bare-express.ts', [capturedFile, String(BARE_PORT)], BARE_PORT, {});

  console.log(
    `\n${os.cpus().length} CPUs (${os.cpus()[0]?.model}), load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `${ROUNDS} rounds of ${SECONDS} s per path and connection count, server then bare, after ${WARMUP_SECONDS} s warm-up; Accept-Encoding: ${ACCEPT_ENCODING}\n`,
  );
  console.log('path               | response bytes | on the wire      | request');
  console.log('-------------------|----------------|------------------|--------');
  for (const p of paths) {
    const c = captured.get(p.name) as Captured;
    console.log(
      `${p.name.padEnd(18)} | ${String(c.bytes).padStart(14)} | ${`${c.wireBytes} ${c.encoding}`.padEnd(16)} | ${p.what}`,
    );
  }

  const serverTarget = { port: SERVER_PORT, child: server };
  const bareTarget = { port: BARE_PORT, child: bare };
  const rows: string[] = [];
  const profiled: [number, number][] = [];
  for (const p of paths) {
    const h = headersOf(p);
    if (WARMUP_SECONDS > 0) {
      await load(serverTarget, p, h, CONNECTIONS.at(-1) ?? 10, WARMUP_SECONDS);
      await load(bareTarget, p, h, CONNECTIONS.at(-1) ?? 10, WARMUP_SECONDS);
    }
    for (const connections of CONNECTIONS) {
      const appLoads: Load[] = [];
      const bareLoads: Load[] = [];
      const ratios: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const app = await load(serverTarget, p, h, connections, SECONDS);
        profiled.push([app.fromMs, app.toMs]);
        const baseline = await load(bareTarget, p, h, connections, SECONDS);
        appLoads.push(app);
        bareLoads.push(baseline);
        ratios.push(
          baseline.requests ? app.requests / app.seconds / (baseline.requests / baseline.seconds) : 0,
        );
      }
      const app = combine(appLoads);
      const baseline = combine(bareLoads);
      const ratio = baseline.reqPerSec ? app.reqPerSec / baseline.reqPerSec : 0;
      const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
      const cpu = (ms: number | null) => (ms === null ? '-' : ms.toFixed(2));
      rows.push(
        [
          p.name.padEnd(18),
          String(connections).padStart(5),
          app.reqPerSec.toFixed(0).padStart(7),
          app.p50.toFixed(0).padStart(5),
          app.p99.toFixed(0).padStart(5),
          String(app.errors).padStart(6),
          baseline.reqPerSec.toFixed(0).padStart(8),
          baseline.p50.toFixed(0).padStart(5),
          baseline.p99.toFixed(0).padStart(5),
          String(baseline.errors).padStart(6),
          pct(ratio).padStart(6),
          `${pct(Math.min(...ratios))}–${pct(Math.max(...ratios))}`.padEnd(11),
          cpu(app.cpuPerRequest).padStart(8),
          cpu(baseline.cpuPerRequest).padStart(8),
        ].join(' | '),
      );
    }
  }
  console.log(
    '\npath               | conns |   req/s | p50ms | p99ms | errors | bare r/s | p50ms | p99ms | errors |  ratio | rounds      | cpu ms/r | bare cpu',
  );
  console.log(
    '-------------------|-------|---------|-------|-------|--------|----------|-------|-------|--------|--------|-------------|----------|---------',
  );
  for (const row of rows) console.log(row);
  console.log(
    `\nratio: the server’s req/s as a share of the bare Express app’s on the same bytes, over ${ROUNDS} rounds of\n` +
      `${SECONDS} s each (rounds: the lowest and highest round's ratio); p50 is the median round's, p99 the worst's.\n` +
      'cpu ms/r: CPU time of the server process (all threads; not PostgreSQL) per answered request, and the bare app’s:\n' +
      'steadier than req/s on a busy machine',
  );

  await stopChild(server);
  if (CPU_PROF_DIR) {
    const file = fs
      .readdirSync(CPU_PROF_DIR)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(CPU_PROF_DIR, f))
      .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
    if (!file) throw new Error(`no .cpuprofile in ${CPU_PROF_DIR}`);
    const from = Math.min(...profiled.map(([f]) => f));
    const to = Math.max(...profiled.map(([, t]) => t));
    console.log(
      `\nserver CPU profile ${file}, ${from.toFixed(0)}–${to.toFixed(0)} ms (the measured loads)\n`,
    );
    console.log(formatTop(profileTop(readProfile(file), from, to)));
  }
} finally {
  await stopChild(server);
  if (bare) await stopChild(bare);
  fs.rmSync(work, { recursive: true, force: true });
}
