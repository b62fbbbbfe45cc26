// Redis stays small and a start does not wait on it: finished jobs are trimmed to the registry's
// limits on every queue, every counter the app counts in Redis expires, and the single-machine
// launcher's redis-server answers (loading) at once when it has a big append-only file to
// replay, serves the data once replayed, and folds the file into a snapshot for the next start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UnrecoverableError, Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { clock } from '../../server/clock.ts';
import { claimTry, countHits, LIMITS } from '../../server/domain/rate-limit.ts';
import { closeQueues, createQueues, createRedis, enqueue, type Queues } from '../../server/queue.ts';
import { ensureRedis, type LaunchedRedis, probeRedis } from '../../server/redis-launcher.ts';
import { JOBS, QUEUES } from '../../src/jobs.ts';
import { freePorts, serviceEnv } from '../helpers/processes.ts';
import { waitFor } from '../helpers/wait.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `t-footprint-${process.pid}`;
const redis = createRedis(REDIS_URL, 'producer');
let queues: Queues;

beforeAll(() => {
  queues = createQueues(redis, prefix);
});
afterAll(async () => {
  await closeQueues(queues);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe('finished jobs', () => {
  test('every registered job keeps a bounded number of finished jobs', () => {
    for (const spec of Object.values(JOBS)) {
      const { removeOnComplete, removeOnFail } = spec.options;
      if (removeOnComplete !== true) expect(removeOnComplete.count, spec.name).toBeGreaterThan(0);
      expect(removeOnFail.count, spec.name).toBeGreaterThan(0);
    }
  });

  test('do not pile up past the limits: completed and failed clip jobs are trimmed to their counts', async () => {
    const { removeOnComplete, removeOnFail } = JOBS.clip.options;
    if (removeOnComplete === true) throw new Error('clip jobs are kept once done');
    const jobs = 2 * Math.max(removeOnComplete.count, removeOnFail.count) + 100;
    const connection = createRedis(REDIS_URL, 'worker');
    let finished = 0;
    const worker = new Worker(
      QUEUES.clip,
      async (job) => {
        // Every other page is gone for good: a failure without retries.
        if (Number(job.data.noteId.slice(1)) % 2) throw new UnrecoverableError('the page is gone');
        return { stored: true };
      },
      { connection, prefix, concurrency: 50 },
    );
    worker.on('completed', () => finished++).on('failed', () => finished++);
    for (let i = 0; i < jobs; i += 100) {
      await Promise.all(
        Array.from({ length: 100 }, (_, j) => enqueue(queues, 'clip', { noteId: `n${i + j}`, attempt: 0 })),
      );
    }
    await waitFor(async () => (finished >= jobs ? true : undefined), 120_000, 'every clip job to finish');
    await worker.close();
    connection.disconnect();
    const counts = await queues.clip.getJobCounts('completed', 'failed');
    expect(counts).toEqual({ completed: removeOnComplete.count, failed: removeOnFail.count });
  }, 180_000);
});

describe('counters', () => {
  test('the abuse limits and the sign-in back-off expire: every key they write has a time to live', async () => {
    const limitPrefix = `${prefix}-limits`;
    await countHits(redis, limitPrefix, [
      { key: 'login:ip:203.0.113.9', ...LIMITS.login.perIp },
      { key: 'feedback:user:7', ...LIMITS.feedback.perUserDay },
    ]);
    await claimTry(redis, limitPrefix, 'login:pair', LIMITS.login.backoff, clock.now().getTime());
    const keys = await redis.keys(`${limitPrefix}:*`);
    expect(keys).toHaveLength(3);
    const ttls = Object.fromEntries(await Promise.all(keys.map(async (key) => [key, await redis.ttl(key)])));
    expect(ttls[`${limitPrefix}:rl:login:ip:203.0.113.9`]).toBeGreaterThan(0);
    expect(ttls[`${limitPrefix}:rl:login:ip:203.0.113.9`]).toBeLessThanOrEqual(
      LIMITS.login.perIp.windowSeconds,
    );
    expect(ttls[`${limitPrefix}:rl:feedback:user:7`]).toBeLessThanOrEqual(
      LIMITS.feedback.perUserDay.windowSeconds,
    );
    expect(ttls[`${limitPrefix}:bo:login:pair`]).toBeGreaterThan(0);
    expect(ttls[`${limitPrefix}:bo:login:pair`]).toBeLessThanOrEqual(LIMITS.login.backoff.forgetAfterSeconds);
    await redis.del(...keys);
  });
});

describe("the launcher's redis-server with a big append-only file", () => {
  let dataDir: string;
  let launched: LaunchedRedis | undefined;
  afterEach(async () => {
    await launched?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A file of a Redis before 7 (one `appendonly.aof`) holding `keys` SETs of about 200 bytes. */
  function writeOldAof(dir: string, keys: number): void {
    const value = 'v'.repeat(160);
    const command = (i: number) => {
      const key = `old:${i}`;
      return `*3\r\n$3\r\nSET\r\n$${key.length}\r\n${key}\r\n$${value.length}\r\n${value}\r\n`;
    };
    const fd = fs.openSync(path.join(dir, 'appendonly.aof'), 'w');
    for (let i = 0; i < keys; i += 10_000) {
      fs.writeSync(fd, Array.from({ length: Math.min(10_000, keys - i) }, (_, j) => command(i + j)).join(''));
    }
    fs.closeSync(fd);
  }

  test('answers while it replays, serves the replayed data and the queues, then rewrites the file as a snapshot', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-redis-aof-'));
    const redisDir = path.join(dataDir, 'redis');
    fs.mkdirSync(redisDir);
    const keys = 300_000; // ~60 MB of commands
    writeOldAof(redisDir, keys);
    const [port = 0] = await freePorts(1);
    const url = `redis://127.0.0.1:${port}`;
    // The suite may run under libfaketime, which redis-server cannot run under.
    const env = process.env;
    process.env = serviceEnv();
    try {
      launched = await ensureRedis(url, dataDir);
    } finally {
      process.env = env;
    }
    expect(launched).toBeDefined();
    expect(await probeRedis('127.0.0.1', port)).toBe('loading');

    // A client made now, as the app's are, waits for the replay and then sees every key.
    const client = createRedis(url, 'producer');
    const appQueues = createQueues(client, 'margin');
    try {
      expect(await client.dbsize()).toBe(keys);
      expect(await client.get('old:123')).toBe('v'.repeat(160));
      const job = await enqueue(appQueues, 'clip', { noteId: 'n1', attempt: 0 });
      expect(await job.getState()).toBe('waiting');

      const aofDir = path.join(redisDir, 'appendonlydir');
      await waitFor(
        async () => {
          const files = fs.existsSync(aofDir) ? fs.readdirSync(aofDir) : [];
          const rewritten =
            files.some((f) => f.endsWith('.base.rdb')) && !files.some((f) => f.endsWith('.base.aof'));
          return rewritten && (await client.info('persistence')).includes('aof_rewrite_in_progress:0')
            ? true
            : undefined;
        },
        60_000,
        'the append-only file to be rewritten as a snapshot',
      );
    } finally {
      await closeQueues(appQueues);
      client.disconnect();
    }
  }, 120_000);
});
