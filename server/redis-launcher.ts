import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { StartupError } from './lifecycle.ts';
import { log } from './log.ts';
import { createRedis } from './queue.ts';

async function answers(url: string): Promise<boolean> {
  const probe = createRedis(url, 'probe');
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

function onPath(binary: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

class RedisUnavailableError extends StartupError {}

/**
 * The single-machine launcher's Redis: use REDIS_URL if it answers; else, for a loopback URL
 * with `redis-server` on PATH, start one with its data under `<dataDir>/redis`.
 */
export async function ensureRedis(url: string, dataDir: string): Promise<LaunchedRedis | undefined> {
  if (await answers(url)) return undefined;
  const { hostname, port } = new URL(url);
  const loopback = ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(hostname);
  if (!loopback || !onPath('redis-server')) {
    throw new RedisUnavailableError(
      `Redis does not answer at ${url}. Start Redis there, set REDIS_URL to a running Redis, ` +
        'or install redis-server (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) ' +
        'so that `npm start` can run one for you.',
    );
  }
  const dir = path.join(dataDir, 'redis');
  fs.mkdirSync(dir, { recursive: true });
  const child = spawn(
    'redis-server',
    ['--port', port || '6379', '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', ''],
    { stdio: 'ignore', detached: false },
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
  for (let i = 0; i < 50; i++) {
    if (await answers(url)) {
      log.info('started redis-server', { dir });
      return launched;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await launched.stop();
  throw new RedisUnavailableError(`redis-server was started but does not answer at ${url}.`);
}

export interface LaunchedRedis {
  /** Stops the redis-server we started and waits until it has exited. */
  stop(): Promise<void>;
}
