import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { StartupError } from './lifecycle.ts';
import { log } from './log.ts';

/** What a Redis at an address says to PING: ready, still replaying its data, or nothing there. */
export type RedisProbe = 'up' | 'loading' | 'down';

const PROBE_TIMEOUT_MS = 1_000;

/**
 * One PING over a bare socket. A Redis replaying its append-only file answers `-LOADING` at once,
 * so this tells "up, loading" apart from "nothing there" without waiting for the replay (a
 * client library's ready check would). Any other answer (a password asked for, TLS) is a server
 * that is there: `up`.
 */
export function probeRedis(host: string, port: number): Promise<RedisProbe> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let connected = false;
    let reply = '';
    const done = (state: RedisProbe) => {
      socket.destroy();
      resolve(state);
    };
    // Something took the connection but says nothing we read (TLS): a server is there.
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(connected ? 'up' : 'down'));
    socket.once('error', () => done(connected ? 'up' : 'down'));
    socket.once('connect', () => {
      connected = true;
      socket.write('*1\r\n$4\r\nPING\r\n');
    });
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('-LOADING') ? 'loading' : 'up');
    });
  });
}

function onPath(binary: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

class RedisUnavailableError extends StartupError {}

/**
 * The launched server's persistence: an append-only file whose rewrites start with an RDB
 * snapshot (it loads as fast as a dump), rewritten whenever it has doubled past 4 MB, so the
 * history of finished jobs and counters is not replayed command by command at each start.
 */
const AOF_REWRITE_MIN_BYTES = 4 * 2 ** 20;
const PERSISTENCE_ARGS = [
  '--appendonly',
  'yes',
  '--save',
  '',
  '--aof-use-rdb-preamble',
  'yes',
  '--auto-aof-rewrite-percentage',
  '100',
  '--auto-aof-rewrite-min-size',
  String(AOF_REWRITE_MIN_BYTES),
];

/**
 * Bytes of the append-only file kept as commands, which a start replays one by one and a rewrite
 * folds into a snapshot: every `.aof` part (an RDB base is a snapshot already), and the single
 * file of a Redis before 7, which Redis 7 takes over as its base.
 */
function commandLogBytes(dir: string): number {
  const aofDir = path.join(dir, 'appendonlydir');
  const parts = fs.existsSync(aofDir) ? fs.readdirSync(aofDir).map((file) => path.join(aofDir, file)) : [];
  return [...parts, path.join(dir, 'appendonly.aof')]
    .filter((file) => file.endsWith('.aof') && fs.existsSync(file))
    .reduce((sum, file) => sum + fs.statSync(file).size, 0);
}

const START_TIMEOUT_MS = 5_000;
const PROBE_EVERY_MS = 20;

/**
 * The single-machine launcher's Redis: use REDIS_URL if something listens there; else, for a
 * loopback URL with `redis-server` on PATH, start one with its data under `<dataDir>/redis`.
 * It answers as soon as the server takes connections, replaying its file or not: clients wait
 * for the replay themselves (ioredis' ready check), so the rest of the start goes on meanwhile.
 */
export async function ensureRedis(url: string, dataDir: string): Promise<LaunchedRedis | undefined> {
  const { hostname, port: portText } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  const port = Number(portText || 6379);
  if ((await probeRedis(host, port)) !== 'down') return undefined;
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(host);
  if (!loopback || !onPath('redis-server')) {
    throw new RedisUnavailableError(
      `Redis does not answer at ${url}. Start Redis there, set REDIS_URL to a running Redis, ` +
        'or install redis-server (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) ' +
        'so that `npm start` can run one for you.',
    );
  }
  const dir = path.join(dataDir, 'redis');
  fs.mkdirSync(dir, { recursive: true });
  const rewriteAtStart = commandLogBytes(dir) > AOF_REWRITE_MIN_BYTES;
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...PERSISTENCE_ARGS],
    {
      stdio: 'ignore',
      detached: false,
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A last resort for exits that skip the ordered stop (an uncaught error).
  const killOnExit = () => child.kill();
  process.on('exit', killOnExit);
  const launched: LaunchedRedis = {
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (performance.now() < deadline && child.exitCode === null) {
    const state = await probeRedis(host, port);
    if (state !== 'down') {
      log.info('started redis-server', { dir, ...(state === 'loading' && { loading: true }) });
      if (rewriteAtStart) void rewriteWhenLoaded(host, port);
      return launched;
    }
    await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
  }
  await launched.stop();
  throw new RedisUnavailableError(`redis-server was started but does not answer at ${url}.`);
}

/**
 * A file that grew past the rewrite size before this start (an older launcher never rewrote it)
 * is folded into a snapshot once the replay is over, so the next start loads a snapshot. Redis's
 * own rule measures growth from the size it loaded, so it would wait for twice that.
 */
async function rewriteWhenLoaded(host: string, port: number): Promise<void> {
  for (;;) {
    const state = await probeRedis(host, port);
    if (state === 'down') return;
    if (state === 'up') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const socket = net.connect({ host, port });
  socket.once('error', () => {});
  socket.once('connect', () => socket.end('*1\r\n$12\r\nBGREWRITEAOF\r\n'));
  socket.once('data', (reply) => {
    log.info('redis-server: rewriting its append-only file', { reply: reply.toString('latin1').trim() });
    socket.destroy();
  });
}

export interface LaunchedRedis {
  /** Stops the redis-server we started and waits until it has exited. */
  stop(): Promise<void>;
}
