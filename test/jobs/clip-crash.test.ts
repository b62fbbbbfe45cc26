import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Note, NoteContent } from '../../server/db/entities/index.ts';
import { ClipStatus } from '../../src/enums.ts';
import { jobIds } from '../../src/jobs.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { article, startSite, type TestSite } from '../helpers/site.ts';
import { signedInUser } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';

let deps: TestDeps;
let site: TestSite;
const children: ChildProcess[] = [];
let slowRequests = 0;

beforeAll(async () => {
  site = await startSite({
    // The first request is never answered, so the first worker is still mid-job whenever the test
    // gets round to killing it; the next request is answered at once.
    '/slow': (_req, res) => {
      slowRequests++;
      if (slowRequests === 1) return;
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(
        article('Survives a crash', [
          'A paragraph long enough to be the body of an article about crash safety in job queues.'.repeat(3),
        ]),
      );
    },
  });
  deps = await createTestDeps({ FETCH_ALLOW_TARGETS: site.target });
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await deps.close();
  await site.close();
});

/** `npm run worker` as its own process, on this test's database and Redis prefix. */
function spawnWorker(): ChildProcess {
  const child = spawn(process.execPath, [path.resolve(import.meta.dirname, '../../jobs/main.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: deps.database.url,
      REDIS_URL: deps.config.redisUrl,
      REDIS_PREFIX: deps.config.redisPrefix,
      FETCH_ALLOW_TARGETS: site.target,
      JOB_LOCK_MS: '1500',
      LOG_LEVEL: 'silent',
    },
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

// Two worker processes start, each loading the app, and a job lock must expire: the time limits
// below leave room for a loaded machine.
test('kill -9 the worker during a parse: the job runs again and the note is clipped once', async () => {
  const { caller } = await signedInUser(deps);
  const first = spawnWorker();
  const { note } = await caller.notes.clip({ url: `${site.origin}/slow` });
  await waitFor(
    async () => (slowRequests >= 1 ? true : undefined),
    60_000,
    'the first worker to start the job',
  );
  expect((await deps.orm.em.fork().findOneOrFail(Note, { id: note.id })).clipStatus).toBe(
    ClipStatus.processing,
  );
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));

  spawnWorker();
  const done = await waitFor(
    async () => {
      const p = await deps.orm.em.fork().findOneOrFail(Note, { id: note.id });
      return p.clipStatus === ClipStatus.done ? p : undefined;
    },
    60_000,
    'the note to be clipped by the second worker',
  );
  expect(done.title).toBe('Survives a crash');
  expect(slowRequests).toBe(2);
  expect(await deps.orm.em.fork().count(NoteContent, { note: note.id })).toBe(1);
  // The note is done when the worker's transaction commits; BullMQ marks the job a moment later.
  const job = await deps.queues.clip.getJob(jobIds.clip(note.id, 1));
  const state = await waitFor(
    async () => {
      const now = await job?.getState();
      return now === 'active' ? undefined : now;
    },
    30_000,
    'the job to leave the active state',
  );
  expect(state).toBe('completed');
}, 150_000);
