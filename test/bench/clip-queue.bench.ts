// `node test/bench/clip-queue.bench.ts [--clips 1000]`: clips of local notes end to end through
// the queue — tRPC-level service call, BullMQ, the worker's guarded fetch, off-thread extraction,
// sanitising and storage — on a scratch database. Reports throughput and enqueue-to-done latency.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startWorkers } from '../../jobs/workers.ts';
import { loadConfig } from '../../server/config.ts';
import { Note } from '../../server/db/entities/index.ts';
import { createOrm, migrate } from '../../server/db/orm.ts';
import { newUser } from '../../server/domain/auth/auth.service.ts';
import { clipUrl } from '../../server/domain/notes/clip.service.ts';
import { setLogLevel } from '../../server/log.ts';
import { closeQueues, createQueues, createRedis } from '../../server/queue.ts';
import { ClipStatus } from '../../src/enums.ts';
import { corpusIds, corpusPage, html, startSite } from '../helpers/site.ts';

const i = process.argv.indexOf('--clips');
const CLIPS = i >= 0 ? Number(process.argv[i + 1]) : 1000;
const ADMIN = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `margin_clipbench_${randomBytes(3).toString('hex')}`;

const ids = corpusIds();
const notes = ids.map((id) => corpusPage(id).html);
const site = await startSite(
  Object.fromEntries(
    Array.from({ length: CLIPS }, (_, n) => [`/p/${n}`, html(notes[n % notes.length] as Buffer)]),
  ),
);
const admin = new pg.Client({ connectionString: ADMIN });
await admin.connect();
await admin.query(
  `create database ${name} encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8' template template0`,
);
const url = ADMIN.replace(/\/[^/]*$/, `/${name}`);
const config = loadConfig({
  DATABASE_URL: url,
  REDIS_PREFIX: name,
  FETCH_ALLOW_TARGETS: site.target,
  LOG_LEVEL: 'error',
});
setLogLevel('error');
const orm = await createOrm(url);
await migrate(orm);
const redis = createRedis(config.redisUrl, 'producer');
const queues = createQueues(redis, config.redisPrefix);
const deps = { config, orm, redis, queues };
const em = orm.em.fork();
const user = newUser(em, { email: 'clipbench@example.test', passwordHash: null, language: 'en' });
await em.flush();

const workers = await startWorkers(deps);
const started = performance.now();
const rssStart = process.memoryUsage().rss;
let peakRss = rssStart;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);
const enqueuedAt = new Map<string, number>();
for (let n = 0; n < CLIPS; n++) {
  const { note } = await clipUrl(orm.em.fork(), queues, user, `${site.origin}/p/${n}`);
  enqueuedAt.set(note.id, performance.now());
}
const enqueueSeconds = (performance.now() - started) / 1000;
const doneAt = new Map<string, number>();
while (doneAt.size < CLIPS) {
  const settled = await orm.em
    .fork()
    .find(
      Note,
      { clipStatus: { $in: [ClipStatus.done, ClipStatus.failed] } },
      { fields: ['id', 'clipStatus'] },
    );
  for (const p of settled) if (!doneAt.has(p.id)) doneAt.set(p.id, performance.now());
  await new Promise((r) => setTimeout(r, 50));
}
clearInterval(sampler);
const seconds = (performance.now() - started) / 1000;
const failed = await orm.em.fork().count(Note, { clipStatus: ClipStatus.failed });
const latencies = [...doneAt].map(([id, t]) => t - (enqueuedAt.get(id) ?? t)).sort((a, b) => a - b);
const pct = (q: number) => latencies[Math.floor(q * (latencies.length - 1))]?.toFixed(0);
console.log(`${CLIPS} clips (${ids.length} distinct corpus notes) end to end in ${seconds.toFixed(1)} s`);
console.log(
  `  enqueue: ${enqueueSeconds.toFixed(1)} s; throughput ${(CLIPS / seconds).toFixed(1)} notes/s on this machine`,
);
console.log(`  enqueue→done latency p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms; failed ${failed}`);
console.log(
  `  peak RSS of the process (server side + workers + extraction threads): ${(peakRss / 1e6).toFixed(0)} MB`,
);

await workers.close();
await closeQueues(queues);
const keys = await redis.keys(`${name}:*`);
if (keys.length) await redis.del(...keys);
redis.disconnect();
await orm.close();
await admin.query(`drop database ${name} with (force)`);
await admin.end();
await site.close();
