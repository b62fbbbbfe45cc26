import { afterAll, beforeAll, expect, test } from 'vitest';
import { Note } from '../../server/db/entities/index.ts';
import { ClipStatus } from '../../src/enums.ts';
import { jobIds } from '../../src/jobs.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
beforeAll(async () => {
  deps = await createTestDeps();
});
afterAll(() => deps.close());

test('saving a note whose clip failed queues it again, once, however many saves arrive together', async () => {
  const { caller } = await signedInUser(deps);
  const url = 'https://unreachable.example/essay';
  const { note } = await caller.notes.clip({ url });
  // No worker runs in this file: the first attempt fails as the worker would leave it.
  await deps.orm.em
    .fork()
    .nativeUpdate(Note, { id: note.id }, { clipStatus: ClipStatus.failed, clipError: 'http 503' });

  const saves = await Promise.all(Array.from({ length: 6 }, () => caller.notes.clip({ url })));
  expect(saves.map((s) => s.created)).toEqual([false, false, false, false, false, false]);
  expect(saves.filter((s) => s.retried)).toHaveLength(1);
  expect(saves.find((s) => s.retried)?.note.clipStatus).toBe(ClipStatus.queued);

  const stored = await deps.orm.em.fork().findOneOrFail(Note, { id: note.id });
  expect(stored).toMatchObject({ clipStatus: ClipStatus.queued, clipError: null, clipAttempts: 2 });
  expect(await deps.queues.clip.getJob(jobIds.clip(note.id, 2))).toBeTruthy();

  // While it is queued, saving again is only "already saved".
  const again = await caller.notes.clip({ url });
  expect(again).toMatchObject({ created: false, retried: false });
  expect((await deps.orm.em.fork().findOneOrFail(Note, { id: note.id })).clipAttempts).toBe(2);
});
