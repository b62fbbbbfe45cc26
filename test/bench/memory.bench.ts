// `npm run bench:memory [-- --seconds 20 --connections 50 --gzip --no-stream --node-args "--flag …"
// --heap-snapshot DIR]`: issue 35's memory row. The real server (production, no workers, a child
// process as bench:api starts it, on bench:api's database: margin_bench_api, seeded on first use
// with 10,000 notes and 50,000 highlights) is signed in and warmed up, then its resident memory
// (VmRSS of /proc/PID/status, every 100 ms) is sampled idle and during N seconds of autocannon at
// 50 connections on the note list's first page (100 rows, no compression; `--gzip` adds a run
// with gzip). Prints idle RSS, peak and median RSS under load, their ratio to idle (the budget:
// ≤ 1.2×), req/s, and V8's heap (used and reserved, by space) and external memory from the
// server's /metrics at the idle point and the load's peak. `--node-args` starts the server under
// other Node flags (to try V8's heap settings); `--heap-snapshot DIR` writes a heap snapshot of the
// server idle and one mid-load into DIR (Node's --heapsnapshot-signal; the load's figures are then
// disturbed: the snapshot stops the process for seconds).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  BENCH_URL,
  cpuMsOf,
  ensureSeeded,
  flag,
  LIST_LIMIT,
  NOTE_LIST_INPUT,
  productNodeArgs,
  queryUrl,
  rawRequest,
  setBenchPassword,
  signIn,
  startBenchServer,
  stopChild,
} from './server-load.ts';

const SERVER_PORT = 3941;
const METRICS_TOKEN = 'bench-memory-metrics-token-0123456789';

const SECONDS = Number(flag('seconds') ?? 20);
const CONNECTIONS = Number(flag('connections') ?? 50);
const WARMUP_REQUESTS = Number(flag('warmup') ?? 200);
const WITH_GZIP = process.argv.includes('--gzip');
const STREAM_QUERIES = !process.argv.includes('--no-stream');
const NODE_ARGS = flag('node-args')?.split(' ').filter(Boolean) ?? productNodeArgs();
const SNAPSHOT_DIR = flag('heap-snapshot');
const SAMPLE_MS = 100;

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** The resident set of a process in bytes (VmRSS), or null once it is gone. */
function rssOf(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** V8's heap and external memory as the server's /metrics (prom-client's defaults) reports them. */
interface HeapFigures {
  used: number;
  total: number;
  external: number;
  /** Reserved (size_total) per heap space: new, old, code, large_object… */
  spaces: Map<string, number>;
}

async function heapOf(): Promise<HeapFigures | null> {
  const res = await rawRequest(SERVER_PORT, 'GET', '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
  if (res.status !== 200) return null;
  const text = res.body.toString('utf8');
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  const spaces = new Map<string, number>();
  for (const m of text.matchAll(/^nodejs_heap_space_size_total_bytes\{space="([a-z_]+)"\} (\S+)$/gm))
    spaces.set(m[1] as string, Number(m[2]));
  return {
    used: value('nodejs_heap_size_used_bytes'),
    total: value('nodejs_heap_size_total_bytes'),
    external: value('nodejs_external_memory_bytes'),
    spaces,
  };
}

function formatHeap(heap: HeapFigures | null): string {
  if (!heap) return 'heap: /metrics did not answer';
  const spaces = [...heap.spaces]
    .filter(([, bytes]) => bytes >= 1024 * 1024)
    .map(([space, bytes]) => `${space} ${mib(bytes)}`)
    .join(', ');
  return `heap used ${mib(heap.used)} of ${mib(heap.total)} reserved (${spaces}), external ${mib(heap.external)}`;
}

/** RSS every SAMPLE_MS and the heap every second until stopped; the heap at the highest RSS kept. */
function sampleMemory(pid: number) {
  const rss: number[] = [];
  let peakHeap: HeapFigures | null = null;
  let peakAtScrape = 0;
  const timer = setInterval(() => {
    const bytes = rssOf(pid);
    if (bytes !== null) rss.push(bytes);
  }, SAMPLE_MS);
  let scraping = true;
  const scrapes = (async () => {
    while (scraping) {
      const heap = await heapOf().catch(() => null);
      const now = rssOf(pid) ?? 0;
      if (heap && now >= peakAtScrape) {
        peakAtScrape = now;
        peakHeap = heap;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  return async () => {
    clearInterval(timer);
    scraping = false;
    await scrapes;
    const sorted = [...rss].sort((a, b) => a - b);
    return {
      samples: sorted.length,
      peak: sorted.at(-1) ?? 0,
      median: sorted[Math.floor(sorted.length / 2)] ?? 0,
      heap: peakHeap as HeapFigures | null,
    };
  };
}

async function snapshot(pid: number, label: string): Promise<void> {
  if (!SNAPSHOT_DIR) return;
  const before = new Set(fs.readdirSync(SNAPSHOT_DIR));
  process.kill(pid, 'SIGUSR2');
  // The file appears when V8 starts writing it; it is done when its size stops changing.
  let file: string | undefined;
  let size = -1;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    file ??= fs.readdirSync(SNAPSHOT_DIR).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (!file) continue;
    const now = fs.statSync(path.join(SNAPSHOT_DIR, file)).size;
    if (now === size && now > 0) break;
    size = now;
  }
  const named = path.join(SNAPSHOT_DIR, `${label}-${file}`);
  fs.renameSync(path.join(SNAPSHOT_DIR, file), named);
  console.log(`heap snapshot (${label}): ${named}`);
}

// --- the run --------------------------------------------------------------------------------

const userId = await ensureSeeded();
{
  const client = new pg.Client({ connectionString: BENCH_URL });
  await client.connect();
  await setBenchPassword(client, userId);
  await client.end();
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-bench-memory-'));
if (SNAPSHOT_DIR) fs.mkdirSync(SNAPSHOT_DIR, { recursive: true });
const nodeArgs = [
  ...NODE_ARGS,
  ...(SNAPSHOT_DIR
    ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${path.resolve(SNAPSHOT_DIR)}`]
    : []),
];
const server = await startBenchServer(SERVER_PORT, {
  redisPrefix: `bench-memory-${process.pid}`,
  dataDir: path.join(work, 'data'),
  env: { METRICS_TOKEN },
  nodeArgs,
});
const pid = server.process.pid as number;

try {
  const cookie = await signIn(SERVER_PORT);
  const headers: Record<string, string> = {
    cookie,
    'x-lang': 'en',
    ...(STREAM_QUERIES ? { 'trpc-accept': 'application/jsonl' } : {}),
  };
  const url = queryUrl('notes.list', NOTE_LIST_INPUT);
  const first = await rawRequest(SERVER_PORT, 'GET', url, { ...headers, 'accept-encoding': 'identity' });
  if (first.status !== 200) throw new Error(`notes.list answered ${first.status}: ${first.body}`);

  console.log(
    `\n${os.cpus().length} CPUs (${os.cpus()[0]?.model}), load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; server node flags: ${nodeArgs.join(' ') || '(none)'}`,
  );
  console.log(
    `notes.list: All, newest first, ${LIST_LIMIT} rows, ${first.body.length} bytes, ${STREAM_QUERIES ? 'JSON lines (the streaming link)' : 'one JSON answer'}`,
  );

  // Warm-up: one request at a time, so the code is compiled and the pools are open, but the
  // heap has not been grown by concurrent load.
  for (let i = 0; i < WARMUP_REQUESTS; i++)
    await rawRequest(SERVER_PORT, 'GET', url, { ...headers, 'accept-encoding': 'identity' });

  const idleStop = sampleMemory(pid);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = await idleStop();
  const idleRss = idle.median;
  console.log(`\nidle (signed in, ${WARMUP_REQUESTS} requests one at a time): RSS ${mib(idleRss)}`);
  const idleHeap = await heapOf();
  console.log(`  ${formatHeap(idleHeap)}`);
  await snapshot(pid, 'idle');

  const runs: [label: string, encoding: string][] = [['no compression', 'identity']];
  if (WITH_GZIP) runs.push(['gzip', 'gzip']);
  const rows: string[] = [];
  for (const [label, encoding] of runs) {
    const stop = sampleMemory(pid);
    const cpuBefore = cpuMsOf(pid);
    const run = autocannon({
      url: `http://127.0.0.1:${SERVER_PORT}`,
      connections: CONNECTIONS,
      duration: SECONDS,
      timeout: 30,
      requests: [{ method: 'GET', path: url, headers: { ...headers, 'accept-encoding': encoding } }],
    });
    if (SNAPSHOT_DIR && label === runs[0]?.[0])
      setTimeout(() => void snapshot(pid, 'load'), (SECONDS * 1000) / 2);
    const result = await run;
    const cpuAfter = cpuMsOf(pid);
    const memory = await stop();
    const errors = result.errors + result.timeouts + result.non2xx;
    console.log(`\n${label}, ${CONNECTIONS} connections, ${SECONDS} s: ${memory.samples} RSS samples`);
    console.log(`  at the peak: ${formatHeap(memory.heap)}`);
    if (memory.heap)
      console.log(
        `  RSS beyond V8's heap and external memory at the peak: ${mib(memory.peak - memory.heap.total - memory.heap.external)} (idle: ${mib(idleRss - (idleHeap ? idleHeap.total + idleHeap.external : 0))})`,
      );
    const after = sampleMemory(pid);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const settled = await after();
    rows.push(
      [
        label.padEnd(15),
        String(CONNECTIONS).padStart(5),
        mib(idleRss).padStart(8),
        mib(memory.peak).padStart(8),
        mib(memory.median).padStart(8),
        `${(memory.peak / idleRss).toFixed(2)}×`.padStart(6),
        `${(memory.median / idleRss).toFixed(2)}×`.padStart(6),
        mib(settled.median).padStart(9),
        (result.requests.total / result.duration).toFixed(0).padStart(6),
        String(result.latency.p99).padStart(5),
        String(errors).padStart(6),
        (cpuBefore === null || cpuAfter === null
          ? '-'
          : ((cpuAfter - cpuBefore) / Math.max(1, result.requests.total)).toFixed(2)
        ).padStart(8),
      ].join(' | '),
    );
  }
  console.log(
    '\nrun             | conns |   idle   |   peak   |  median  | peak/i | med/i | 2 s after |  req/s | p99ms | errors | cpu ms/r',
  );
  console.log(
    '----------------|-------|----------|----------|----------|--------|-------|-----------|--------|-------|--------|---------',
  );
  for (const row of rows) console.log(row);
  console.log(
    '\nidle: the median RSS over 2 s after the warm-up; peak and median: RSS (VmRSS) sampled every ' +
      `${SAMPLE_MS} ms under load;\npeak/i: issue 35's figure (budget ≤ 1.2×); 2 s after: the median RSS over 2 s once the load stopped;\ncpu ms/r: the server process's CPU time (all threads) per answer, steadier than req/s on a busy machine`,
  );
} finally {
  await stopChild(server);
  fs.rmSync(work, { recursive: true, force: true });
}
