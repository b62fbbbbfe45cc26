// The job registry (src/jobs.ts) guards both ends of a queue: `enqueue` refuses a payload its
// job's schema does not accept, and a worker fails a job whose payload does not parse (or whose
// name is no registered job) before any processor sees it, visibly and without retries.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type JobHandlers, jobProcessor } from '../../jobs/job-processor.ts';
import { userFilesDir } from '../../jobs/maintenance.processor.ts';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { Note } from '../../server/db/entities/index.ts';
import {
  createRedis,
  enqueue,
  findJob,
  InvalidJobPayloadError,
  type Queues,
  upsertSchedules,
} from '../../server/queue.ts';
import { ClipStatus } from '../../src/enums.ts';
import {
  DEFAULT_JOB_OPTIONS,
  JOBS,
  type JobSpec,
  QUEUE_NAMES,
  QUEUES,
  type QueueName,
} from '../../src/jobs.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { makeQueuedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-registry-'));
  deps = await createTestDeps({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await deps?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function jobCount(queues: Queues): Promise<number> {
  let total = 0;
  for (const name of QUEUE_NAMES) {
    const counts = await queues[name].getJobCounts();
    total += Object.values(counts).reduce((a, b) => a + b, 0);
  }
  return total;
}

/** Waits for a job to end, and answers its state and why it failed (read once it has ended). */
async function settled(queue: QueueName, id: string) {
  await expect
    .poll(async () => (await (await deps.queues[queue].getJob(id))?.getState()) ?? 'missing')
    .toMatch(/^(failed|completed)$/);
  const job = await deps.queues[queue].getJob(id);
  if (!job) throw new Error(`job ${id} is gone`);
  return { state: await job.getState(), failedReason: job.failedReason, attemptsMade: job.attemptsMade };
}

describe('enqueue', () => {
  test('adds a job under its registered name, id and options, with the payload as parsed', async () => {
    const job = await enqueue(deps.queues, 'clip', {
      noteId: 'n0te',
      attempt: 2,
      extra: 'dropped',
    } as never);
    expect(job.queueName).toBe(QUEUES.clip);
    expect(job.name).toBe(JOBS.clip.name);
    expect(job.id).toBe('clip-n0te-2');
    expect(job.data).toEqual({ noteId: 'n0te', attempt: 2 });
    expect(job.opts).toMatchObject({
      attempts: DEFAULT_JOB_OPTIONS.attempts,
      backoff: DEFAULT_JOB_OPTIONS.backoff,
    });
    expect((await findJob(deps.queues, 'clip', { noteId: 'n0te', attempt: 2 }))?.id).toBe(job.id);
    // The same payload again is the same job: nothing more is added.
    await enqueue(deps.queues, 'clip', { noteId: 'n0te', attempt: 2 });
    expect(await deps.queues.clip.getJobCounts('waiting')).toEqual({ waiting: 1 });
    await job.remove();
  });

  test.each([
    ['clip', { noteId: '', attempt: 1 }],
    ['clip', { noteId: 'n0te' }],
    ['clip', { noteId: 'n0te', attempt: -1 }],
    ['clip', { noteId: 'n0te', attempt: 1.5 }],
    ['clip', { noteId: 7, attempt: 1 }],
    ['mail', { key: 'code-1', to: 'not an address', subject: 'Code', text: '123456' }],
    ['mail', { key: 'code:1', to: 'a@example.test', subject: 'Code', text: '123456' }],
    ['mail', { to: 'a@example.test', subject: 'Code', text: '123456' }],
    ['deleteUserFiles', { userId: '7' }],
    ['deleteUserFiles', { userId: 0 }],
    ['reindexSearch', null],
  ] as const)('refuses a bad %s payload %j and adds nothing', async (key, payload) => {
    const before = await jobCount(deps.queues);
    const attempt = enqueue(deps.queues, key, payload as never);
    await expect(attempt).rejects.toBeInstanceOf(InvalidJobPayloadError);
    await expect(attempt).rejects.toThrow(`invalid ${key} job payload`);
    expect(await jobCount(deps.queues)).toBe(before);
  });

  test('the scheduled jobs get one scheduler each, under their registered id and interval', async () => {
    await upsertSchedules(deps.queues);
    await upsertSchedules(deps.queues);
    const schedulers = await deps.queues.maintenance.getJobSchedulers();
    const scheduled = (Object.values(JOBS) as JobSpec[]).filter((spec) => spec.schedule);
    expect(scheduled.map((spec) => spec.name).sort()).toEqual([
      'membership',
      'purge-expired-sessions',
      'purge-trash',
      'sweep-stale-clips',
      'sweep-webhooks',
    ]);
    expect(
      schedulers
        .map((s) => ({ key: s.key, name: s.name, every: Number(s.every) }))
        .sort((a, b) => a.key.localeCompare(b.key)),
    ).toEqual(
      scheduled
        .map((spec) => ({ key: spec.jobId({}), name: spec.name, every: spec.schedule?.every }))
        .sort((a, b) => a.key.localeCompare(b.key)),
    );
    for (const s of schedulers) await deps.queues.maintenance.removeJobScheduler(s.key);
    await deps.queues.maintenance.obliterate({ force: true });
  });
});

describe('a malformed job put on the queue directly (raw BullMQ)', () => {
  test('fails at once with the reason, and no handler is called', async () => {
    const handlers = {
      purgeExpiredSessions: vi.fn(async () => 'purged'),
      deleteUserFiles: vi.fn(async (_payload: { userId: number }) => 'deleted'),
      purgeStoredFiles: vi.fn(async () => 'purged'),
      sweepStaleClips: vi.fn(async () => 'swept'),
      purgeTrash: vi.fn(async () => 'purged'),
      reindexSearch: vi.fn(async () => 'reindexed'),
      sweepWebhooks: vi.fn(async () => 'swept'),
      membership: vi.fn(async () => 'checked'),
    } satisfies JobHandlers<'maintenance'>;
    const connection = createRedis(deps.config.redisUrl, 'worker');
    const worker = new Worker(QUEUES.maintenance, jobProcessor(QUEUES.maintenance, handlers), {
      connection,
      prefix: deps.config.redisPrefix,
    });
    try {
      const raw = deps.queues.maintenance;
      // Retries allowed: a payload that does not parse is not retried all the same.
      const opts = { attempts: 3, backoff: { type: 'fixed', delay: 10 } };
      await raw.add(JOBS.deleteUserFiles.name, { userId: 'everyone' }, { ...opts, jobId: 'bad-1' });
      await raw.add(JOBS.deleteUserFiles.name, {}, { ...opts, jobId: 'bad-2' });
      await raw.add('drop-all-tables', {}, { ...opts, jobId: 'bad-3' });
      await raw.add(JOBS.deleteUserFiles.name, { userId: 7 }, { ...opts, jobId: 'good' });

      const bad1 = await settled(QUEUES.maintenance, 'bad-1');
      expect(bad1).toMatchObject({ state: 'failed', attemptsMade: 1 });
      expect(bad1.failedReason).toMatch(/^invalid deleteUserFiles job payload/);
      expect(bad1.failedReason).toContain('userId');
      expect(await settled(QUEUES.maintenance, 'bad-2')).toMatchObject({
        state: 'failed',
        attemptsMade: 1,
        failedReason: expect.stringMatching(/^invalid deleteUserFiles job payload/),
      });
      expect(await settled(QUEUES.maintenance, 'bad-3')).toMatchObject({
        state: 'failed',
        attemptsMade: 1,
        failedReason: 'no job named "drop-all-tables" runs on the maintenance queue',
      });
      // The good one ran, with its payload as parsed: only it reached the handler.
      expect(await settled(QUEUES.maintenance, 'good')).toMatchObject({ state: 'completed' });
      expect(handlers.deleteUserFiles).toHaveBeenCalledTimes(1);
      expect(handlers.deleteUserFiles.mock.calls[0]?.[0]).toEqual({ userId: 7 });
      for (const handler of Object.values(handlers))
        if (handler !== handlers.deleteUserFiles) expect(handler).not.toHaveBeenCalled();
    } finally {
      await worker.close();
      connection.disconnect();
      await deps.queues.maintenance.obliterate({ force: true });
    }
  });

  describe('to the real workers', () => {
    let workers: RunningWorkers;
    beforeAll(async () => {
      workers = await startWorkers(deps);
    });
    afterAll(() => workers?.close());

    test('a clip job without its attempt never touches the note; bad mail and file jobs change nothing', async () => {
      const { user } = await signedInUser(deps);
      // A note waiting for its clip, made without a job: only the malformed one could touch it.
      const note = await makeQueuedNote(deps, user.id, {
        url: 'https://registry.example/never-fetched',
        title: 'never fetched',
        clipAttempts: 1,
      });
      const before = await deps.orm.em.fork().findOneOrFail(Note, { id: note.id });
      await deps.queues.clip.add(JOBS.clip.name, { noteId: note.id }, { jobId: 'bad-clip' });

      const files = userFilesDir(dataDir, user.id);
      fs.mkdirSync(files, { recursive: true });
      await deps.queues.maintenance.add(
        JOBS.deleteUserFiles.name,
        { userId: String(user.id) },
        { jobId: 'bad-files' },
      );
      await deps.queues.mail.add(
        JOBS.mail.name,
        { key: 'bad', to: 'nobody', subject: 'Code', text: '123456' },
        { jobId: 'bad-mail' },
      );

      const clip = await settled(QUEUES.clip, 'bad-clip');
      expect(clip).toMatchObject({ state: 'failed', attemptsMade: 1 });
      expect(clip.failedReason).toMatch(/^invalid clip job payload/);
      expect(clip.failedReason).toContain('attempt');
      const after = await deps.orm.em.fork().findOneOrFail(Note, { id: note.id });
      expect(after).toMatchObject({ clipStatus: ClipStatus.queued, clipAttempts: 1 });
      expect(after.updatedAt).toEqual(before.updatedAt);

      expect((await settled(QUEUES.maintenance, 'bad-files')).failedReason).toMatch(
        /^invalid deleteUserFiles job payload/,
      );
      expect(fs.existsSync(files)).toBe(true);

      expect((await settled(QUEUES.mail, 'bad-mail')).failedReason).toMatch(/^invalid mail job payload/);
      expect(
        fs.existsSync(path.join(dataDir, 'outbox')) ? fs.readdirSync(path.join(dataDir, 'outbox')) : [],
      ).toEqual([]);
    });
  });
});
