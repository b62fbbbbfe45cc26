// bench:start's Redis history (test/bench/cold-start.bench.ts runs it). Two forms:
//
//   node cold-start-history.ts TREE DATA_DIR REDIS_URL CLIP_JOBS REQUESTS
//     the history a checkout's own code writes: the launcher of TREE starts its redis-server on
//     DATA_DIR as `npm start` would, CLIP_JOBS clip jobs go through TREE's `enqueue` and a BullMQ
//     worker (one in ten fails for good), and REQUESTS requests from 5,000 addresses are counted
//     by TREE's rate limits (each also a try of the sign-in back-off).
//   node cold-start-history.ts --old-aof DIR REDIS_URL MB
//     an append-only file of MB MB as a Redis that never rewrote it holds: jobs added, run and
//     removed and counters counted, written by a plain redis-server (no RDB preamble) into DIR.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';

const PREFIX = 'margin';
const ADDRESSES = 5_000;

async function untilPong(url: string): Promise<Redis> {
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  for (;;) {
    try {
      if ((await redis.ping()) === 'PONG') return redis;
    } catch {
      // still loading
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function checkoutHistory(
  tree: string,
  dataDir: string,
  url: string,
  clipJobs: number,
  requests: number,
) {
  const { ensureRedis } = await import(path.join(tree, 'server/redis-launcher.ts'));
  const { createQueues, createRedis, enqueue, closeQueues } = await import(
    path.join(tree, 'server/queue.ts')
  );
  const { countHits, claimTry, LIMITS } = await import(path.join(tree, 'server/domain/rate-limit.ts'));
  const launched = await ensureRedis(url, dataDir);
  if (!launched) throw new Error(`something already answers at ${url}`);
  const redis = await untilPong(url);
  const producer = createRedis(url, 'producer');
  const queues = createQueues(producer, PREFIX);
  let finished = 0;
  const workerConnection = createRedis(url, 'worker');
  const allFinished = new Promise<void>((resolve) => {
    const worker = new Worker(
      'clip',
      async (job) => {
        if (Number(job.data.noteId.slice(1)) % 10 === 0) throw new UnrecoverableError('the page is gone');
        return { ok: true };
      },
      { connection: workerConnection, prefix: PREFIX, concurrency: 50 },
    );
    const onFinished = async () => {
      if (++finished < clipJobs) return;
      await worker.close();
      resolve();
    };
    worker.on('completed', onFinished).on('failed', onFinished);
  });
  for (let i = 0; i < clipJobs; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, clipJobs - i) }, (_, j) =>
        enqueue(queues, 'clip', { noteId: `n${i + j}`, attempt: 0 }),
      ),
    );
  }
  await allFinished;
  for (let i = 0; i < requests; i += 100) {
    await Promise.all(
      Array.from({ length: 100 }, async (_, j) => {
        const address = `10.0.${Math.floor((i + j) / 256) % 20}.${(i + j) % 256}`;
        const key = `login:ip:${(i + j) % ADDRESSES}-${address}`;
        await countHits(redis, PREFIX, [{ key, ...LIMITS.login.perIp }]);
        await claimTry(redis, PREFIX, `pair:${key}`, LIMITS.login.backoff, Date.now()).catch(() => {});
      }),
    );
  }
  const keys = await redis.dbsize();
  await closeQueues(queues);
  producer.disconnect();
  workerConnection.disconnect();
  redis.disconnect();
  await launched.stop();
  console.log(`history written: ${clipJobs} clip jobs, ${requests} counted requests; ${keys} keys left`);
}

async function oldAof(dir: string, url: string, mb: number) {
  fs.mkdirSync(dir, { recursive: true });
  const port = new URL(url).port;
  const child = spawn(
    'redis-server',
    ['--port', port, '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', ''],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const redis = await untilPong(url);
  await redis.config('SET', 'auto-aof-rewrite-percentage', '0');
  const aofBytes = () =>
    fs
      .readdirSync(path.join(dir, 'appendonlydir'))
      .reduce((sum, file) => sum + fs.statSync(path.join(dir, 'appendonlydir', file)).size, 0);
  for (let job = 0; aofBytes() < mb * 2 ** 20; job += 1000) {
    const multi = redis.multi();
    for (let i = job; i < job + 1000; i++) {
      const key = `${PREFIX}:clip:${i}`;
      multi
        .hset(key, {
          name: 'clip',
          data: JSON.stringify({ noteId: `n${i}`, attempt: 0 }),
          opts: '{"attempts":5}',
        })
        .lpush(`${PREFIX}:clip:wait`, String(i))
        .xadd(`${PREFIX}:clip:events`, 'MAXLEN', '~', '10000', '*', 'event', 'added', 'jobId', String(i))
        .lrem(`${PREFIX}:clip:wait`, 1, String(i))
        .hset(key, {
          processedOn: String(Date.now()),
          finishedOn: String(Date.now()),
          returnvalue: '{"ok":true}',
        })
        .xadd(`${PREFIX}:clip:events`, 'MAXLEN', '~', '10000', '*', 'event', 'completed', 'jobId', String(i))
        .del(key)
        .incr(`${PREFIX}:rl:openapi:${i % 500}`)
        .expire(`${PREFIX}:rl:openapi:${i % 500}`, 60);
    }
    await multi.exec();
  }
  redis.disconnect();
  child.kill('SIGTERM');
  await exited;
  console.log(`old history written: ${(aofBytes() / 2 ** 20).toFixed(1)} MB of append-only file in ${dir}`);
}

const [first = '', ...rest] = process.argv.slice(2);
if (first === '--old-aof') {
  const [dir = '', url = '', mb = '50'] = rest;
  await oldAof(dir, url, Number(mb));
} else {
  const [dataDir = '', url = '', clipJobs = '0', requests = '0'] = rest;
  await checkoutHistory(first, dataDir, url, Number(clipJobs), Number(requests));
}
