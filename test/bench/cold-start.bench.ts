// `npm run bench:start [-- --runs 7 --rev HEAD --baseline REV --aof-mb 50 --reseed]`: `npm start` with its data
// present, from launch to the first healthy answer (`GET /healthz` 200), as a user restarts it.
// The checkout at `--rev` is exported (git archive) to a directory of its own beside
// node_modules' symlink, so its builds are its own and a warm start builds nothing; its data
// directory holds an embedded PostgreSQL with 10,000 notes (test/bench/seed.ts) and a Redis
// history that rev's own code wrote (10,000 clip jobs through BullMQ, one in ten failing, and
// 50,000 requests' rate-limit counters), so the trimming and the persistence under test are the
// rev's. One untimed start (which builds), then N timed ones, each printing when each start-up
// line came and when /healthz first answered and first answered 200; then the median and the max.
// `--baseline REV` prepares a second checkout the same way and alternates starts between the two,
// for a same-run comparison on a busy machine. `--aof-mb N` also times N starts each facing an append-only file of N MB of old history
// (replaced before every start). Everything lives under BENCH_DIR (default
// $TMPDIR/margin-bench-coldstart); ports BENCH_PORT (3931), +1 PostgreSQL, +2 Redis.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunningCommand, userShellEnv } from '../helpers/processes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BENCH_DIR = process.env.BENCH_DIR ?? path.join(os.tmpdir(), 'margin-bench-coldstart');
const PORT = Number(process.env.BENCH_PORT ?? 3931);
const PG_PORT = PORT + 1;
const REDIS_PORT = PORT + 2;
const REDIS_URL = `redis://127.0.0.1:${REDIS_PORT}`;
const NOTES = 10_000;
const CLIP_JOBS = 10_000;
const RATE_LIMITED_REQUESTS = 50_000;
const HEALTH_POLL_MS = 10;

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(option('runs') ?? 7);
const AOF_MB = Number(option('aof-mb') ?? 0);
const RESEED = process.argv.includes('--reseed');
const resolveRev = (name: string) =>
  execFileSync('git', ['rev-parse', name], { cwd: ROOT, encoding: 'utf8' }).trim().slice(0, 12);
const BASELINE = option('baseline');

/** The rev's files as `git archive` writes them (mtimes from the commit, so builds stay fresh). */
function exportTree(rev: string): string {
  const tree = path.join(BENCH_DIR, `tree-${rev}`);
  if (fs.existsSync(path.join(tree, 'package.json'))) return tree;
  fs.mkdirSync(tree, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${rev} | tar -x -C ${JSON.stringify(tree)}`], { cwd: ROOT });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'));
  return tree;
}

/** Runs a TypeScript file of ours on this Node, with `env` added; throws on a failure. */
function runScript(script: string, args: string[], env: Record<string, string>, cwd = ROOT): void {
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`${script} failed (${result.status})`);
}

/** A PostgreSQL cluster with the seeded user's 10,000 notes, made once and copied for each rev. */
async function seededPostgres(): Promise<string> {
  const seedDir = path.join(BENCH_DIR, 'seed');
  const done = path.join(seedDir, 'seeded');
  if (fs.existsSync(done) && !RESEED) return seedDir;
  fs.rmSync(seedDir, { recursive: true, force: true });
  fs.mkdirSync(seedDir, { recursive: true });
  const { startEmbeddedPostgres } = await import('../../server/db/embedded.ts');
  const pg = await startEmbeddedPostgres(seedDir, PG_PORT);
  try {
    runScript('test/bench/seed.ts', ['--pages', String(NOTES), '--highlights', String(NOTES * 3)], {
      BENCH_DATABASE_URL: pg.url,
    });
  } finally {
    await pg.stop();
  }
  fs.writeFileSync(done, new Date().toISOString());
  return seedDir;
}

/** The rev's data directory: the seeded cluster and a Redis history the rev's own code wrote. */
async function dataDirFor(rev: string, tree: string): Promise<string> {
  const data = path.join(BENCH_DIR, `data-${rev}`);
  if (fs.existsSync(path.join(data, 'history-written')) && !RESEED) return data;
  const seed = await seededPostgres();
  fs.rmSync(data, { recursive: true, force: true });
  fs.mkdirSync(data, { recursive: true });
  execFileSync('cp', ['-a', path.join(seed, 'pg'), path.join(seed, 'pg-password'), data]);
  runScript(
    path.join(ROOT, 'test/bench/cold-start-history.ts'),
    [tree, data, REDIS_URL, String(CLIP_JOBS), String(RATE_LIMITED_REQUESTS)],
    {},
    tree,
  );
  fs.writeFileSync(path.join(data, 'history-written'), new Date().toISOString());
  return data;
}

/** An append-only directory of `mb` MB of old history (jobs added, run and removed, counters), made once. */
function oldHistoryAof(mb: number): string {
  const dir = path.join(BENCH_DIR, `aof-${mb}mb`);
  if (fs.existsSync(path.join(dir, 'appendonlydir'))) return dir;
  fs.mkdirSync(dir, { recursive: true });
  runScript(
    path.join(ROOT, 'test/bench/cold-start-history.ts'),
    ['--old-aof', dir, REDIS_URL, String(mb)],
    {},
  );
  return dir;
}

interface Run {
  /** When each start-up line came, ms after launch. */
  lines: { ms: number; msg: string; phases?: unknown }[];
  firstAnswerMs: number;
  healthyMs: number;
  aofBytes: number;
}

function aofBytes(data: string): number {
  const dir = path.join(data, 'redis', 'appendonlydir');
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir).reduce((sum, file) => sum + fs.statSync(path.join(dir, file)).size, 0);
}

async function startOnce(tree: string, data: string): Promise<Run> {
  const aof = aofBytes(data);
  const launchedAt = Date.now();
  const app = new RunningCommand('npm', ['start'], {
    cwd: tree,
    env: userShellEnv({
      PORT: String(PORT),
      EMBEDDED_PG_PORT: String(PG_PORT),
      REDIS_URL,
      DATA_DIR: data,
    }),
  });
  let firstAnswerMs = 0;
  let healthyMs = 0;
  let exited = false;
  void app.exited.then(() => {
    exited = true;
  });
  while (!healthyMs) {
    if (exited) throw new Error(`npm start exited:\n${app.output}`);
    const status = await fetch(`http://127.0.0.1:${PORT}/healthz`, { signal: AbortSignal.timeout(5_000) })
      .then((response) => response.status)
      .catch(() => 0);
    const ms = Date.now() - launchedAt;
    if (status && !firstAnswerMs) firstAnswerMs = ms;
    if (status === 200) healthyMs = ms;
    else await new Promise((r) => setTimeout(r, HEALTH_POLL_MS));
  }
  await app.waitForOutput('Margin is ready', 60_000);
  const lines = app.output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { t: string; msg: string; phases?: unknown })
    .map(({ t, msg, phases }) => ({ ms: Date.parse(t) - launchedAt, msg, phases }));
  const { code } = await app.stop('SIGTERM');
  if (code !== 0) throw new Error(`npm start did not stop cleanly (${code}):\n${app.output}`);
  return { lines, firstAnswerMs, healthyMs, aofBytes: aof };
}

function describe(run: Run): string {
  const lines = run.lines.map((line) => `${String(line.ms).padStart(6)} ms  ${line.msg}`);
  const phases = run.lines.find((line) => line.phases)?.phases;
  return [
    ...lines,
    ...(phases ? [`           phases (ms after the process began): ${JSON.stringify(phases)}`] : []),
    `${String(run.firstAnswerMs).padStart(6)} ms  first answer from /healthz`,
    `${String(run.healthyMs).padStart(6)} ms  first healthy answer (AOF at launch ${(run.aofBytes / 2 ** 20).toFixed(1)} MB)`,
  ].join('\n');
}

function summary(name: string, runs: Run[]): string {
  const sorted = runs.map((r) => r.healthyMs).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return `${name}: launch → first healthy answer median ${median} ms, max ${sorted.at(-1)} ms (runs ${runs.map((r) => r.healthyMs).join(', ')})`;
}

/** A checkout to time: its tree and its data directory, prepared once. */
interface Checkout {
  rev: string;
  tree: string;
  data: string;
}

async function prepare(name: string): Promise<Checkout> {
  const rev = resolveRev(name);
  const tree = exportTree(rev);
  const data = await dataDirFor(rev, tree);
  const warmup = await startOnce(tree, data);
  console.log(`${rev}: untimed first start (builds when needed):\n${describe(warmup)}`);
  return { rev, tree, data };
}

/** N starts of each checkout, alternating (which goes first alternates too), so load hits both alike. */
async function timeStarts(name: string, checkouts: Checkout[], before?: (checkout: Checkout) => void) {
  const runs = new Map<string, Run[]>(checkouts.map((c) => [c.rev, []]));
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 ? [...checkouts].reverse() : checkouts;
    for (const checkout of order) {
      before?.(checkout);
      const run = await startOnce(checkout.tree, checkout.data);
      console.log(`\n${checkout.rev} ${name}, run ${i + 1} of ${RUNS}:\n${describe(run)}`);
      runs.get(checkout.rev)?.push(run);
    }
  }
  return checkouts.map((c) => summary(`${c.rev} ${name}`, runs.get(c.rev) ?? []));
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const checkouts: Checkout[] = [];
for (const name of [option('rev') ?? 'HEAD', ...(BASELINE ? [BASELINE] : [])])
  checkouts.push(await prepare(name));
console.log(`load average ${loadAverage()}`);
const results = await timeStarts('with its history', checkouts);
if (AOF_MB) {
  const old = oldHistoryAof(AOF_MB);
  const replaceAof = ({ data }: Checkout) => {
    fs.rmSync(path.join(data, 'redis'), { recursive: true, force: true });
    execFileSync('cp', ['-a', old, path.join(data, 'redis')]);
  };
  results.push(...(await timeStarts(`with a ${AOF_MB} MB append-only file`, checkouts, replaceAof)));
}
console.log(`\nload average ${loadAverage()}\n${results.join('\n')}`);
process.exit(0);
