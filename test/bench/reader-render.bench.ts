// `node test/bench/reader-render.bench.ts`: open the reader on a long article (~100 KB of text)
// carrying 500 highlights, in Chromium, and time from navigation start until every highlight is
// painted as <mark> elements. Scratch database; loopback only.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { createApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { Note, NoteContent } from '../../server/db/entities/index.ts';
import { createOrm, migrate } from '../../server/db/orm.ts';
import { newUser } from '../../server/domain/auth/auth.service.ts';
import { createSession } from '../../server/domain/auth/session.service.ts';
import { createHighlight } from '../../server/domain/highlights/highlights.service.ts';
import { urlHash } from '../../server/domain/notes/clip.service.ts';
import { setLogLevel } from '../../server/log.ts';
import { closeQueues, createQueues, createRedis } from '../../server/queue.ts';
import { describeRange } from '../../src/anchoring/index.ts';
import { ClipStatus, CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { ensureClientBuilt } from '../helpers/browser.ts';
import { languageFor, prng, sentence } from './corpus.ts';

const HIGHLIGHTS = 500;
const RUNS = 7;
const ADMIN = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `margin_renderbench_${randomBytes(3).toString('hex')}`;

ensureClientBuilt();
setLogLevel('error');
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

// A long article: paragraphs of mixed-language sentences, with their plain text as the server
// stores it (paragraphs separated by a blank line).
const random = prng(7);
const paragraphs: string[] = [];
while (paragraphs.join('\n\n').length < 100_000) {
  const language = languageFor(random);
  paragraphs.push(Array.from({ length: 5 }, () => sentence(random, language)).join(' '));
}
const text = paragraphs.join('\n\n');
const em = orm.em.fork();
const user = newUser(em, { email: 'render@example.test', passwordHash: null, language: 'en' });
await em.flush();
const pageUrl = 'https://render.example/long';
const note = em.create(Note, {
  id: newId(),
  user: user.id,
  url: pageUrl,
  urlHash: urlHash(pageUrl),
  title: 'A long article',
  clipStatus: ClipStatus.done,
});
em.create(NoteContent, { note, text, contentHtml: paragraphs.map((p) => `<p>${p}</p>`).join('\n') });
await em.flush();
for (let i = 0; i < HIGHLIGHTS; i++) {
  const start = Math.floor((i / HIGHLIGHTS) * (text.length - 80));
  await createHighlight(orm.em.fork(), user, {
    id: newId(),
    noteId: note.id,
    coreType: CoreType.highlight,
    selectors: describeRange(text, start, start + 20 + (i % 40)),
    text: '',
    slotId: 1 + (i % 6),
    style: 1 + (i % 4),
    tags: [],
  });
}
const { token } = await createSession(orm.em.fork(), user, { ip: null, userAgent: 'bench' });
const server = createApp({ config, orm, redis, queues }).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
  ],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
await context.addCookies([{ name: 'logininfo', value: token, url: base }]);
const tab = await context.newPage();
const times: number[] = [];
for (let run = 0; run < RUNS; run++) {
  await tab.goto(`${base}/?pi=${note.id}&vs=article`);
  await tab.waitForFunction(
    (n) =>
      new Set(
        [...document.querySelectorAll('mark[data-highlight-id]')].map((m) =>
          m.getAttribute('data-highlight-id'),
        ),
      ).size >= n,
    HIGHLIGHTS,
    { timeout: 30_000, polling: 10 },
  );
  times.push(await tab.evaluate(() => performance.now()));
}
times.sort((a, b) => a - b);
const marks = await tab.evaluate(() => document.querySelectorAll('mark[data-highlight-id]').length);
console.log(`${text.length} characters, ${HIGHLIGHTS} highlights (${marks} <mark> elements), ${RUNS} loads`);
console.log(
  `navigation start → all highlights painted: p50 ${times[Math.floor(RUNS / 2)]?.toFixed(0)} ms, worst ${times.at(-1)?.toFixed(0)} ms`,
);

await browser.close();
server.close();
await closeQueues(queues);
redis.disconnect();
await orm.close();
await admin.query(`drop database ${name} with (force)`);
await admin.end();
