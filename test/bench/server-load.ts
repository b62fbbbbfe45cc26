// What the benches that load the real server over HTTP share (api.bench.ts, openapi.bench.ts):
// the seeded database (one user, 10,000 notes, 50,000 highlights), the server and other
// processes as children, raw requests, tRPC requests as the client sends them, signing in and
// a process's CPU time.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import superjson from 'superjson';
import { hashPassword } from '../../server/domain/auth/password.ts';
import { SortOrder } from '../../src/enums.ts';
import { portAnswers } from '../helpers/processes.ts';
import { waitFor } from '../helpers/wait.ts';

/** A `--name value` argument of the bench's command line. */
export function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const BENCH_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/margin_bench_api';
export const PAGES = 10_000;
export const HIGHLIGHTS = 50_000;
const EMAIL = 'bench@example.test';
const PASSWORD = 'bench-api-password';

/** The note list's page size in the client (client/features/notes/NoteList.tsx CHUNK). */
export const LIST_LIMIT = 100;
/** The note list's first page as the client asks for it: All, newest first. */
export const NOTE_LIST_INPUT = {
  nav: 'all',
  sort: SortOrder.newestFirst,
  limit: LIST_LIMIT,
  direction: 'forward',
} as const;

// --- the database -------------------------------------------------------------------------

async function seededUserId(): Promise<number | null> {
  const client = new pg.Client({ connectionString: BENCH_URL });
  try {
    await client.connect();
  } catch {
    return null; // no such database yet
  }
  try {
    const { rows } = await client.query<{ id: string; notes: number; highlights: number }>(
      `select u.id, (select count(*)::int from note where user_id = u.id) notes,
         (select count(*)::int from highlight where user_id = u.id) highlights
       from "user" u where u.email = $1`,
      [EMAIL],
    );
    const row = rows[0];
    return row && row.notes >= PAGES && row.highlights >= HIGHLIGHTS ? Number(row.id) : null;
  } catch {
    return null;
  } finally {
    await client.end();
  }
}

/** The bench user's id, after seeding BENCH_URL unless it already holds the user and their rows. */
export async function ensureSeeded(): Promise<number> {
  const existing = await seededUserId();
  if (existing !== null) return existing;
  console.log(`seeding ${PAGES} notes and ${HIGHLIGHTS} highlights into ${BENCH_URL} …`);
  const seed = spawn(
    process.execPath,
    [path.join(ROOT, 'test/bench/seed.ts'), '--pages', String(PAGES), '--highlights', String(HIGHLIGHTS)],
    { stdio: 'inherit', env: { ...process.env, BENCH_DATABASE_URL: BENCH_URL } },
  );
  const code = await new Promise<number | null>((resolve) => seed.once('exit', resolve));
  if (code !== 0) throw new Error(`seeding failed (exit ${code})`);
  const seeded = await seededUserId();
  if (seeded === null) throw new Error('seeding left no bench user');
  return seeded;
}

/** Gives the bench user a password `signIn` knows (the seed makes them without one). */
export async function setBenchPassword(client: pg.Client, userId: number): Promise<void> {
  await client.query('update "user" set password_hash = $1 where id = $2', [
    await hashPassword(PASSWORD),
    userId,
  ]);
}

// --- processes ------------------------------------------------------------------------------

export interface Child {
  process: ChildProcess;
  startedAt: number;
}

export async function startChild(
  script: string,
  args: string[],
  port: number,
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): Promise<Child> {
  if (await portAnswers(port)) throw new Error(`port ${port} is taken`);
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, script), ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env },
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  await waitFor(
    async () => {
      if (exited) throw new Error(`${script} exited before it listened`);
      return (await portAnswers(port)) || undefined;
    },
    60_000,
    `${script} on port ${port}`,
  );
  return { process: child, startedAt };
}

/**
 * The app as it runs in production (no workers) on `port` over BENCH_URL, with its own Redis
 * prefix and data directory, and any further settings in `env` (METRICS_TOKEN, say); under
 * `node --cpu-prof` when given a directory for the profile.
 */
export function startBenchServer(
  port: number,
  options: {
    redisPrefix: string;
    dataDir: string;
    cpuProfDir?: string | undefined;
    env?: NodeJS.ProcessEnv;
    /** The server process's Node flags: by default those it ships with (`productNodeArgs`). */
    nodeArgs?: string[];
  },
): Promise<Child> {
  return startChild(
    'server/main.ts',
    [],
    port,
    {
      NODE_ENV: 'production',
      DATABASE_URL: BENCH_URL,
      HOST: '127.0.0.1',
      PORT: String(port),
      REDIS_PREFIX: options.redisPrefix,
      INLINE_WORKERS: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: options.dataDir,
      ...options.env,
    },
    [
      ...(options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfDir)}`] : []),
      ...(options.nodeArgs ?? productNodeArgs()),
    ],
  );
}

/** The Node flags `npm run server` starts the server with (package.json), so benches time what ships. */
export function productNodeArgs(): string[] {
  const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<
    string,
    string
  >;
  const words = (scripts.server ?? '').split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('server/main.ts'));
}

export async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null) return;
  const exited = new Promise((resolve) => child.process.once('exit', resolve));
  child.process.kill('SIGTERM');
  await exited;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** User plus system CPU time of a process so far, in ms (Linux), or null. */
export function cpuMsOf(pid: number | undefined): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

// --- requests -------------------------------------------------------------------------------

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request as sent, answered as received (no decompression). */
export function rawRequest(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A tRPC call as the client's batch link sends a single one. */
export function queryUrl(procedure: string, input: unknown): string {
  return batchQueryUrl([[procedure, input]]);
}

/** tRPC queries as the client's batch link sends them together in one GET. */
export function batchQueryUrl(calls: [procedure: string, input: unknown][]): string {
  const inputs = Object.fromEntries(calls.map(([, input], i) => [i, superjson.serialize(input)]));
  return `/trpc/${calls.map(([procedure]) => procedure).join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`;
}

export function mutationBody(input: unknown): string {
  return JSON.stringify({ 0: superjson.serialize(input) });
}

/** Signs the bench user in (after `setBenchPassword`); answers the session cookie. */
export async function signIn(port: number): Promise<string> {
  const res = await rawRequest(
    port,
    'POST',
    '/trpc/auth.login?batch=1',
    { 'content-type': 'application/json' },
    mutationBody({ email: EMAIL, password: PASSWORD }),
  );
  const cookies = res.headers['set-cookie'] ?? [];
  if (res.status !== 200 || !cookies.length) throw new Error(`sign-in failed: ${res.status} ${res.body}`);
  return cookies.map((c) => c.split(';')[0]).join('; ');
}
