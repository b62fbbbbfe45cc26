import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { Note } from '../../server/db/entities/index.ts';
import { ClipStatus } from '../../src/enums.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { neverFinishingPage } from '../helpers/never-finishing-site.ts';
import { clipSettled } from '../helpers/notes.ts';
import { article, html, startSite, type TestSite } from '../helpers/site.ts';
import { signedInUser } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';

// A worker process of CLIP_CONCURRENCY=3 and EXTRACT_POOL_SIZE=1: three clips run at once, and
// while the pool's one thread extracts a page the other clips go on fetching.

const CONCURRENCY = 3;
const PARAGRAPHS = [
  'The server holds this page until the test lets it go, so the clips waiting on it can be counted.',
  'A second paragraph gives the parser enough text to take the article for the body of the page.',
];
const PAGE = article('A held page', PARAGRAPHS);

let deps: TestDeps;
let site: TestSite;
let workers: RunningWorkers;
const held: ServerResponse[] = [];
let mostHeldAtOnce = 0;

beforeAll(async () => {
  site = await startSite({
    '/endless': html(neverFinishingPage()),
    '/after-endless': html(article('After the endless page', PARAGRAPHS)),
    '/held': (_req, res) => {
      held.push(res);
      mostHeldAtOnce = Math.max(mostHeldAtOnce, held.filter((r) => !r.writableEnded).length);
    },
  });
  deps = await createTestDeps({
    FETCH_ALLOW_TARGETS: site.target,
    CLIP_CONCURRENCY: String(CONCURRENCY),
    EXTRACT_POOL_SIZE: '1',
    // Far beyond what a healthy page needs on a loaded machine; the endless page holds the pool's
    // only thread this long.
    EXTRACT_TIMEOUT_MS: '5000',
  });
  workers = await startWorkers(deps);
});
afterAll(async () => {
  await workers.close();
  await deps.close();
  await site.close();
});

const statusOf = async (noteId: string) =>
  (await deps.orm.em.fork().findOneOrFail(Note, { id: noteId })).clipStatus;

describe(`CLIP_CONCURRENCY=${CONCURRENCY}, EXTRACT_POOL_SIZE=1`, () => {
  test('three pages are fetched at once, no more; the others wait in the queue', async () => {
    const { caller } = await signedInUser(deps);
    const notes = await Promise.all(
      Array.from(
        { length: 5 },
        async (_, i) => (await caller.notes.clip({ url: `${site.origin}/held?n=${i}` })).note,
      ),
    );
    // The URL's query makes each a note of its own; the site sees one path.
    expect(new Set(notes.map((note) => note.id)).size).toBe(5);
    await waitFor(async () => (held.length >= CONCURRENCY ? true : undefined), 20_000, 'three held fetches');
    // The worker holds three jobs and leaves the other two queued, so no fourth fetch can start.
    await waitFor(
      async () => {
        const counts = await deps.queues.clip.getJobCounts('active', 'waiting');
        return counts.active === CONCURRENCY && counts.waiting === 2 ? true : undefined;
      },
      20_000,
      'three active clip jobs and two waiting',
    );
    expect(held).toHaveLength(CONCURRENCY);
    const release = () => {
      for (const res of held.filter((r) => !r.writableEnded)) {
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.end(PAGE);
      }
    };
    release();
    await waitFor(async () => (held.length === 5 ? true : undefined), 20_000, 'the last two fetches');
    release();
    const settled = await Promise.all(notes.map((note) => clipSettled(deps, note.id)));
    expect(settled.map((note) => note.clipStatus)).toEqual(Array(5).fill(ClipStatus.done));
    expect(mostHeldAtOnce).toBe(CONCURRENCY);
  });

  test('while the pool extracts one page, the next page is fetched and waits for the thread', async () => {
    const { caller } = await signedInUser(deps);
    const endless = (await caller.notes.clip({ url: `${site.origin}/endless` })).note;
    await waitFor(async () => (site.hits.get('/endless') ? true : undefined), 20_000, 'the endless fetch');
    const next = (await caller.notes.clip({ url: `${site.origin}/after-endless` })).note;
    await waitFor(async () => (site.hits.get('/after-endless') ? true : undefined), 20_000, 'the next fetch');
    // The next page was fetched while the endless one still held the pool's only thread.
    expect(await statusOf(endless.id)).toBe(ClipStatus.processing);
    expect(await statusOf(next.id)).toBe(ClipStatus.processing);
    expect(await clipSettled(deps, endless.id)).toMatchObject({
      clipStatus: ClipStatus.failed,
      clipError: 'extract:timeout',
    });
    expect((await clipSettled(deps, next.id)).clipStatus).toBe(ClipStatus.done);
  });
});
