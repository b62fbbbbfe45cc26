// `npm run bench:markdown-export`: the Markdown zip export of the benchmark user of `npm run
// bench:sync` (run that first: it seeds margin_bench_sync with 10,000 notes and 50,000
// highlights; BENCH_DATABASE_URL picks another database), read as fast as it is written. Prints
// the time, the zip's size and files, and heap and RSS as it goes and at their peak.
// Budget (issue 16): 10,000 notes stream in ≤ 30 s with flat memory.
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Redis } from 'ioredis';
import { ZipFile } from 'yazl';
import { ComputePool } from '../../server/domain/compute/compute-pool.ts';
import { writeMarkdownExport } from '../../server/domain/sync/markdown-export.ts';
import { openBenchUser } from './bench-db.ts';

const { orm, raw, user } = await openBenchUser(
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/margin_bench_sync',
);
const {
  rows: [{ notes }],
} = await raw.query('select count(*)::int notes from note where user_id = $1', [user.id]);

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const compute = new ComputePool({ size: 2, redis, redisPrefix: 'bench-markdown-export' });

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
let bytes = 0;
let files = 0;
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    bytes += chunk.length;
    done();
  },
});
const zip = new ZipFile();
/** Counts the files as the export adds them. */
type AddLazy = (...args: unknown[]) => void;
const addLazy = zip.addReadStreamLazy.bind(zip) as AddLazy;
(zip as unknown as { addReadStreamLazy: AddLazy }).addReadStreamLazy = (...args) => {
  files++;
  // Memory as the export goes: flat means it does not grow with the notes written.
  if (files % 2000 === 0) {
    const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
    console.log(`${files} files: rss ${mb(rss)}, heap ${mb(heapUsed)}, buffers ${mb(arrayBuffers)}`);
  }
  addLazy(...args);
};

globalThis.gc?.();
const base = process.memoryUsage();
let peakHeap = base.heapUsed;
let peakRss = base.rss;
const sampler = setInterval(() => {
  const now = process.memoryUsage();
  peakHeap = Math.max(peakHeap, now.heapUsed);
  peakRss = Math.max(peakRss, now.rss);
}, 20);
const started = performance.now();
await Promise.all([
  writeMarkdownExport(orm.em.fork(), user, 'http://margin.test', zip, compute),
  pipeline(zip.outputStream, sink),
]);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);

console.log(`notes ${notes}, files ${files}, zip ${mb(bytes)}, ${seconds.toFixed(1)} s`);
console.log(`heap: ${mb(base.heapUsed)} → peak ${mb(peakHeap)} (+${mb(peakHeap - base.heapUsed)})`);
console.log(`rss:  ${mb(base.rss)} → peak ${mb(peakRss)} (+${mb(peakRss - base.rss)})`);
await compute.close();
redis.disconnect();
await raw.end();
await orm.close();
