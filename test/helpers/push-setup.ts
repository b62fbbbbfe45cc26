import type { Job } from 'bullmq';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { clock } from '../../server/clock.ts';
import { Integration } from '../../server/db/entities/index.ts';
import { findJob } from '../../server/queue.ts';
import { describeRange } from '../../src/anchoring/index.ts';
import { CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import type { ConnectPushInput, PushApp } from '../../src/schemas/sync.ts';
import { createTestDeps, type TestDeps } from './deps.ts';
import { makeClippedNote } from './notes.ts';
import { signedInUser } from './users.ts';
import { waitFor } from './wait.ts';

// What the push tests share: real PostgreSQL, Redis and workers, with the local tool servers
// allowed through the guarded fetcher and the push delays short (but not skipped).

export interface PushTestEnv {
  deps: TestDeps;
  workers: RunningWorkers;
  close(): Promise<void>;
}

/** Debounce and first retry delay of the push tests (the retries still double: 150, 300, 600, 1200 ms). */
export const TEST_PUSH_DEBOUNCE_MS = 600;
const TEST_PUSH_RETRY_DELAY_MS = 150;

export async function startPushTestEnv(env: Record<string, string>): Promise<PushTestEnv> {
  const deps = await createTestDeps({
    PUSH_DEBOUNCE_MS: String(TEST_PUSH_DEBOUNCE_MS),
    PUSH_RETRY_DELAY_MS: String(TEST_PUSH_RETRY_DELAY_MS),
    ...env,
  });
  const workers = await startWorkers(deps);
  return {
    deps,
    workers,
    async close() {
      await workers.close();
      await deps.close();
    },
  };
}

export type Reader = Awaited<ReturnType<typeof signedInUser>>;

/** A signed-in user with a clipped note of `text`. */
export async function readerWithNote(deps: TestDeps, title: string, text: string) {
  const reader = await signedInUser(deps);
  const note = await makeClippedNote(deps, reader.user.id, { title, text });
  return { reader, note: { id: note.id, text } };
}

/** A reader with a note, connected to `app` with `credentials`, once the first push has run. */
export async function connectedReader(
  deps: TestDeps,
  note: { title: string; text: string },
  connection: ConnectPushInput,
) {
  const made = await readerWithNote(deps, note.title, note.text);
  const since = now();
  const view = await made.reader.caller.sync.connectPush(connection);
  await pushSettled(deps, made.reader.user.id, connection.app, since);
  return { ...made, view };
}

/** Highlights `phrase` in the note (its first occurrence). */
export function highlight(
  reader: Reader,
  note: { id: string; text: string },
  phrase: string,
  fields: { annotation?: string; tags?: string[] } = {},
) {
  const start = note.text.indexOf(phrase);
  if (start < 0) throw new Error(`"${phrase}" is not in the note`);
  return reader.caller.highlights.create({
    id: newId(),
    noteId: note.id,
    coreType: CoreType.highlight,
    selectors: describeRange(note.text, start, start + phrase.length),
    ...fields,
  });
}

/** The integration's row as the database has it now (credentials included, which the client never sees). */
export async function integrationRow(
  deps: TestDeps,
  userId: number,
  app: PushApp,
): Promise<Integration | null> {
  return deps.orm.em.fork().findOne(Integration, { user: userId, app });
}

/** The app clock's now (what `last_run_at` is stamped with), to wait for a run after it. */
export const now = () => clock.now().getTime();

/**
 * Waits until a push of the user's to `app` ran after `since` (from `now()`) and none is queued or
 * running any more (a run may leave changes still behind an open transaction to the next one),
 * and answers the integration's row.
 */
export function pushSettled(
  deps: TestDeps,
  userId: number,
  app: PushApp,
  since: number,
): Promise<Integration> {
  return waitFor(
    async () => {
      const row = await integrationRow(deps, userId, app);
      if (!row?.lastRunAt || row.lastRunAt.getTime() < since) return undefined;
      return (await findJob(deps.queues, 'push', { userId, app })) ? undefined : row;
    },
    20_000,
    `the ${app} pushes after ${new Date(since).toISOString()} to settle`,
  );
}

/** The user's push jobs for `app` that have finished (completed or failed), oldest first. */
export async function finishedPushJobs(deps: TestDeps, userId: number, app: PushApp): Promise<Job[]> {
  const jobs = await deps.queues.push.getJobs(['completed', 'failed']);
  return jobs
    .filter((job) => job.data.userId === userId && job.data.app === app)
    .sort((a, b) => (a.finishedOn ?? 0) - (b.finishedOn ?? 0));
}

/** Waits until `count` push jobs of the user's for `app` have finished, and answers them. */
export function pushJobsFinished(
  deps: TestDeps,
  userId: number,
  app: PushApp,
  count: number,
): Promise<Job[]> {
  return waitFor(
    async () => {
      const jobs = await finishedPushJobs(deps, userId, app);
      return jobs.length >= count ? jobs : undefined;
    },
    20_000,
    `${count} finished ${app} push jobs`,
  );
}
