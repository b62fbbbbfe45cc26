// `npm run bench:images`: the image job on the extraction corpus's real articles. Each page is
// extracted as a clip would (its image addresses are the page's own), every image address is
// pointed at a loopback site serving a 300×200 PNG of noise (~180 KB, which does not compress),
// and the job stores the page's images into a local store (a temporary directory) and a scratch
// database; then the reader's rewrite of the stored article is timed. Reports images per page and
// the time per page and per image (p50/p95), on loopback: the network a real site adds is not in it.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { loadConfig } from '../../server/config.ts';
import { Note, NoteContent } from '../../server/db/entities/index.ts';
import { createOrm, migrate } from '../../server/db/orm.ts';
import { newUser } from '../../server/domain/auth/auth.service.ts';
import { extractArticle } from '../../server/domain/clip/extract/index.ts';
import { sanitizeArticleHtml } from '../../server/domain/clip/sanitize.ts';
import { articleImageSources } from '../../server/domain/images/article-images.ts';
import { storeNoteImages } from '../../server/domain/images/store-images.ts';
import { readerArticle } from '../../server/domain/images/stored-images.ts';
import { urlHash } from '../../server/domain/notes/clip.service.ts';
import { setLogLevel } from '../../server/log.ts';
import { closeQueues, createQueues, createRedis } from '../../server/queue.ts';
import { LocalStorage } from '../../server/storage/local.ts';
import { ClipStatus } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { corpusIds, corpusPage } from '../helpers/site.ts';

const ADMIN = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `margin_imagebench_${randomBytes(3).toString('hex')}`;
setLogLevel('error');

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 300×200 PNG whose pixels are noise, so its ~180 KB are what a photo of that size weighs. */
function noisePng(width = 300, height = 200): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(
    Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), randomBytes(width * 3)])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PICTURE = noisePng();
const server = http.createServer((_req, res) => {
  res.setHeader('Content-Type', 'image/png');
  res.end(PICTURE);
});
server.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const site = `127.0.0.1:${(server.address() as AddressInfo).port}`;

const admin = new pg.Client({ connectionString: ADMIN });
await admin.connect();
await admin.query(
  `create database ${name} encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8' template template0`,
);
const url = ADMIN.replace(/\/[^/]*$/, `/${name}`);
const config = loadConfig({ DATABASE_URL: url, REDIS_PREFIX: name, LOG_LEVEL: 'error' });
const orm = await createOrm(url);
await migrate(orm);
const redis = createRedis(config.redisUrl, 'producer');
const queues = createQueues(redis, config.redisPrefix);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-imagebench-'));
const env = { storage: new LocalStorage(dataDir), allowedTargets: [site] };
const em = orm.em.fork();
const user = newUser(em, { email: 'images@example.test', passwordHash: null, language: 'en' });
await em.flush();

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
const perPage: { images: number; storeMs: number; rewriteMs: number }[] = [];
try {
  for (const id of corpusIds()) {
    const pageUrl = `https://corpus.example/${id}`;
    const article = extractArticle(corpusPage(id).html.toString('utf8'), pageUrl);
    let contentHtml = sanitizeArticleHtml(article.contentHtml);
    const sources = articleImageSources(contentHtml);
    if (!sources.length) continue;
    // Each address the page's own, now answered by the loopback site.
    sources.forEach((source, i) => {
      contentHtml = contentHtml.split(`"${escapeAttribute(source)}"`).join(`"http://${site}/${id}/${i}.png"`);
    });
    const note = em.create(Note, {
      id: newId(),
      user: user.id,
      url: pageUrl,
      urlHash: urlHash(pageUrl),
      title: id,
      clipStatus: ClipStatus.done,
      clipAttempts: 1,
    });
    em.create(NoteContent, { note, contentHtml, text: article.text });
    await em.flush();
    const started = performance.now();
    const result = await storeNoteImages(orm.em.fork(), { noteId: note.id, attempt: 1 }, env, {
      lastAttempt: true,
    });
    const storeMs = performance.now() - started;
    if (typeof result !== 'object' || Object.keys(result.refused).length)
      throw new Error(`${id}: ${JSON.stringify(result)}`);
    const rewriteStarted = performance.now();
    const shown = await readerArticle(orm.em.fork(), queues, note, contentHtml);
    const rewriteMs = performance.now() - rewriteStarted;
    if (shown.imagesPending) throw new Error(`${id}: images still pending`);
    perPage.push({ images: sources.length, storeMs, rewriteMs });
  }
} finally {
  await closeQueues(queues);
  redis.disconnect();
  await orm.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const images = perPage.map((p) => p.images);
const line = (label: string, values: number[], unit = 'ms') =>
  console.log(
    `${label.padEnd(28)} p50 ${quantile(values, 0.5).toFixed(1)} ${unit}   p95 ${quantile(values, 0.95).toFixed(1)} ${unit}   max ${Math.max(...values).toFixed(1)} ${unit}`,
  );
console.log(
  `${corpusIds().length} corpus pages, ${perPage.length} with images; ${images.reduce((a, b) => a + b, 0)} images of ${PICTURE.length} bytes each, on ${os.cpus().length} cores`,
);
line('images per page', images, '');
line(
  'storing a page’s images',
  perPage.map((p) => p.storeMs),
);
line(
  'storing, per image',
  perPage.map((p) => p.storeMs / p.images),
);
line(
  'reader rewrite of a page',
  perPage.map((p) => p.rewriteMs),
);
