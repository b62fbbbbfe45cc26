import { afterAll, beforeAll, expect, test } from 'vitest';
import { clock } from '../../server/clock.ts';
import { Note } from '../../server/db/entities/index.ts';
import { sweepStaleClips } from '../../server/domain/notes/sweep.ts';
import { ClipStatus } from '../../src/enums.ts';
import { jobIds } from '../../src/jobs.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
beforeAll(async () => {
  deps = await createTestDeps();
});
afterAll(() => deps.close());

test('a note stuck in 3 or 4 with no job is queued again; after three attempts it fails as stale', async () => {
  const { caller } = await signedInUser(deps);
  // No worker runs in this file, so the clip jobs stay waiting; then Redis "loses" them.
  const { note: stuck } = await caller.notes.clip({ url: 'https://stuck.example/a' });
  const { note: tired } = await caller.notes.clip({ url: 'https://stuck.example/b' });
  const { note: waiting } = await caller.notes.clip({ url: 'https://stuck.example/c' });
  await (await deps.queues.clip.getJob(jobIds.clip(stuck.id, 1)))?.remove();
  await (await deps.queues.clip.getJob(jobIds.clip(tired.id, 1)))?.remove();
  const em = deps.orm.em.fork();
  await em.nativeUpdate(Note, { id: stuck.id }, { clipStatus: ClipStatus.processing });
  await em.nativeUpdate(Note, { id: tired.id }, { clipAttempts: 3 });

  const later = new Date(clock.now().getTime() + 16 * 60_000);
  await expect(sweepStaleClips(deps.orm.em.fork(), deps.queues, later)).resolves.toEqual({
    requeued: 1,
    failed: 1,
  });

  const after = deps.orm.em.fork();
  await expect(after.findOneOrFail(Note, { id: stuck.id })).resolves.toMatchObject({
    clipStatus: ClipStatus.queued,
    clipAttempts: 2,
  });
  expect(await deps.queues.clip.getJob(jobIds.clip(stuck.id, 2))).toBeTruthy();
  await expect(after.findOneOrFail(Note, { id: tired.id })).resolves.toMatchObject({
    clipStatus: ClipStatus.failed,
    clipError: 'stale',
  });
  // A note whose job still waits is left alone; running the sweep again changes nothing.
  await expect(after.findOneOrFail(Note, { id: waiting.id })).resolves.toMatchObject({ clipAttempts: 1 });
  await expect(sweepStaleClips(deps.orm.em.fork(), deps.queues, later)).resolves.toEqual({
    requeued: 0,
    failed: 0,
  });
});
