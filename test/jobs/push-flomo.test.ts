import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FLOMO_POST_INTERVAL_MS } from '../../server/domain/sync/push/flomo.ts';
import { findJob } from '../../server/queue.ts';
import { type FlomoServer, startFlomo } from '../helpers/push-servers.ts';
import {
  connectedReader,
  finishedPushJobs,
  highlight,
  integrationRow,
  now,
  type PushTestEnv,
  pushJobsFinished,
  pushSettled,
  readerWithNote,
  startPushTestEnv,
  TEST_PUSH_DEBOUNCE_MS,
} from '../helpers/push-setup.ts';
import { waitFor } from '../helpers/wait.ts';

let env: PushTestEnv;
let flomo: FlomoServer;

const TEXT =
  'Patience is a quiet discipline. The river bends around the stone. Every margin holds a second voice. ' +
  'Reading slowly is reading twice. A note in the margin is a letter to a later self.';

beforeAll(async () => {
  flomo = await startFlomo();
  env = await startPushTestEnv({ FETCH_ALLOW_TARGETS: flomo.target, FLOMO_API_ORIGIN: flomo.origin });
});
afterAll(async () => {
  await env?.close();
  await flomo?.close();
});

/** A reader with a note and flomo connected, after the push connecting queues (nothing to send yet). */
async function connectReader(title: string) {
  const webhookUrl = flomo.newWebhook();
  const { reader, note, view } = await connectedReader(
    env.deps,
    { title, text: TEXT },
    { app: 'flomo', credentials: { webhookUrl } },
  );
  return { reader, note, webhookUrl, view };
}

describe('connecting flomo', () => {
  test('a URL that is not a flomo webhook is refused and nothing is saved', async () => {
    const { reader } = await readerWithNote(env.deps, 'Refused', TEXT);
    const good = flomo.newWebhook();
    const path = new URL(good).pathname;
    for (const webhookUrl of [
      `https://example.com${path}`,
      `${flomo.origin}/api${path}`,
      `${flomo.origin}/iwh/only-one-part/`,
      `${flomo.origin}${path}?next=1`,
      'not a url',
    ]) {
      await expect(
        reader.caller.sync.connectPush({ app: 'flomo', credentials: { webhookUrl } }),
      ).rejects.toMatchObject({ message: 'errors.flomoUrlInvalid' });
    }
    expect((await reader.caller.sync.integration({ app: 'flomo' })).bound).toBe(false);
    expect((await integrationRow(env.deps, reader.user.id, 'flomo'))?.credentials ?? null).toBeNull();
    expect(flomo.received.filter((r) => r.path === path)).toHaveLength(0);
  });

  test('the webhook is saved and the integration bound, but the client never gets it back', async () => {
    const { reader, webhookUrl, view } = await connectReader('Connected');
    expect(view).toMatchObject({ app: 'flomo', bound: true, enabled: true });
    const everything = JSON.stringify([view, await reader.caller.sync.integrations()]);
    expect(everything).not.toContain(new URL(webhookUrl).pathname.split('/')[3]);
    expect((await integrationRow(env.deps, reader.user.id, 'flomo'))?.credentials).toEqual({ webhookUrl });
  });
});

describe('pushing to flomo', () => {
  test('highlights made close together are one push: a memo each, once, a second apart', async () => {
    const { reader, note, webhookUrl } = await connectReader('Burst');
    const since = now();
    const burst = Date.now();
    await Promise.all([
      highlight(reader, note, 'Patience is a quiet discipline', { tags: ['calm'] }),
      highlight(reader, note, 'The river bends around the stone'),
      highlight(reader, note, 'Every margin holds a second voice'),
    ]);
    const burstEnd = Date.now();
    const row = await pushSettled(env.deps, reader.user.id, 'flomo', since);
    expect(row).toMatchObject({ lastResult: 'ok', lastError: null });
    expect(row.lastCount).toBeGreaterThanOrEqual(1);
    const memos = flomo.memos(webhookUrl);
    expect(memos.map((m) => m.content)).toEqual([
      expect.stringContaining('Patience is a quiet discipline'),
      expect.stringContaining('The river bends around the stone'),
      expect.stringContaining('Every margin holds a second voice'),
    ]);
    expect(memos[0]?.content).toContain('#calm');
    for (let i = 1; i < memos.length; i++) {
      expect(memos[i]!.at - memos[i - 1]!.at).toBeGreaterThanOrEqual(FLOMO_POST_INTERVAL_MS - 50);
    }
    // The three changes were one job, when they came within one debounce (a loaded machine may
    // spread them wider; then each debounce window holds one job).
    const jobs = await finishedPushJobs(env.deps, reader.user.id, 'flomo');
    const windows = Math.ceil((burstEnd - burst + 1) / TEST_PUSH_DEBOUNCE_MS);
    const inBurst = jobs.filter((job) => job.timestamp >= burst && job.timestamp <= burstEnd);
    expect(inBurst.length).toBeGreaterThanOrEqual(1);
    expect(inBurst.length).toBeLessThanOrEqual(windows);
  });

  test('a push that fails midway is retried and sends each highlight once', async () => {
    const { reader, note, webhookUrl } = await connectReader('Midway');
    const path = new URL(webhookUrl).pathname;
    // The push's second post fails once (flomo having a bad moment).
    flomo.failNext(1, { path, after: 1 });
    const since = now();
    await highlight(reader, note, 'Patience is a quiet discipline');
    await highlight(reader, note, 'The river bends around the stone');
    await highlight(reader, note, 'Every margin holds a second voice');
    const row = await pushSettled(env.deps, reader.user.id, 'flomo', since);
    expect(row.lastResult).toBe('ok');
    const failed = flomo.received.filter((r) => r.path === path).length - flomo.memos(webhookUrl).length;
    expect(failed).toBe(1);
    expect(flomo.memos(webhookUrl).map((m) => m.content.split('\n')[0])).toEqual([
      expect.stringContaining('Patience'),
      expect.stringContaining('river'),
      expect.stringContaining('margin'),
    ]);
    const jobs = await finishedPushJobs(env.deps, reader.user.id, 'flomo');
    expect(jobs.map((job) => job.attemptsMade)).toContain(2);
  });

  test('a post answered 200 in words Margin cannot read is one memo, never posted again', async () => {
    const { reader, note, webhookUrl } = await connectReader('Garbled');
    const path = new URL(webhookUrl).pathname;
    // Every answer is garbled, as many as the job has attempts.
    flomo.garbleNext(5, { method: 'POST', path });
    try {
      const since = now();
      await highlight(reader, note, 'Reading slowly is reading twice');
      expect(await pushSettled(env.deps, reader.user.id, 'flomo', since)).toMatchObject({ lastResult: 'ok' });
      expect(flomo.memos(webhookUrl).map((m) => m.content)).toEqual([
        expect.stringContaining('Reading slowly is reading twice'),
      ]);
    } finally {
      flomo.garbleNext(0, { method: 'POST', path });
    }
  });

  test('an annotation added later is a new memo (flomo has no edit); removing it sends nothing', async () => {
    const { reader, note, webhookUrl } = await connectReader('Annotated');
    let since = now();
    const made = await highlight(reader, note, 'Reading slowly is reading twice');
    await pushSettled(env.deps, reader.user.id, 'flomo', since);
    expect(flomo.memos(webhookUrl)).toHaveLength(1);

    since = now();
    await reader.caller.highlights.update({ id: made.id, annotation: 'Slow is smooth.' });
    await pushSettled(env.deps, reader.user.id, 'flomo', since);
    const memos = flomo.memos(webhookUrl);
    expect(memos).toHaveLength(2);
    expect(memos[1]?.content).toContain('Reading slowly is reading twice');
    expect(memos[1]?.content).toContain('Slow is smooth.');

    since = now();
    await reader.caller.highlights.update({ id: made.id, annotation: null });
    expect(await pushSettled(env.deps, reader.user.id, 'flomo', since)).toMatchObject({ lastCount: 0 });
    expect(flomo.memos(webhookUrl)).toHaveLength(2);
  });

  test('a flomo that keeps failing shows the error after the retries; retry sends it', async () => {
    const { reader, note, webhookUrl } = await connectReader('Failing');
    const path = new URL(webhookUrl).pathname;
    flomo.failNext(1000, { path });
    const since = now();
    await highlight(reader, note, 'A note in the margin is a letter to a later self');
    const failedRow = await pushSettled(env.deps, reader.user.id, 'flomo', since);
    expect(failedRow).toMatchObject({ bound: true, lastResult: 'error', lastError: 'errors.pushFailed' });
    expect(await reader.caller.sync.integration({ app: 'flomo' })).toMatchObject({
      lastResult: 'error',
      lastError: 'errors.pushFailed',
    });
    // Five attempts, each a single post: the backoff let them through one by one.
    expect(flomo.received.filter((r) => r.path === path)).toHaveLength(5);
    expect(flomo.memos(webhookUrl)).toHaveLength(0);

    flomo.failNext(0);
    const retried = now();
    await reader.caller.sync.retryPush({ app: 'flomo' });
    const row = await pushSettled(env.deps, reader.user.id, 'flomo', retried);
    expect(row).toMatchObject({ lastResult: 'ok', lastError: null, lastCount: 1 });
    expect(flomo.memos(webhookUrl).map((m) => m.content)).toEqual([
      expect.stringContaining('letter to a later self'),
    ]);
  });

  test('a webhook flomo no longer knows unbinds the integration and says why', async () => {
    const { reader, note, webhookUrl } = await connectReader('Revoked');
    flomo.revoke(webhookUrl);
    const since = now();
    await highlight(reader, note, 'The river bends around the stone');
    await pushSettled(env.deps, reader.user.id, 'flomo', since);
    expect(await reader.caller.sync.integration({ app: 'flomo' })).toMatchObject({
      bound: false,
      lastResult: 'error',
      lastError: 'errors.pushKeyRevoked',
    });
    expect((await integrationRow(env.deps, reader.user.id, 'flomo'))?.credentials ?? null).toBeNull();
    // Refused credentials are not retried.
    expect(flomo.received.filter((r) => r.path === new URL(webhookUrl).pathname)).toHaveLength(1);
  });

  test('a highlight committed behind a transaction still open elsewhere is pushed once that one ends', async () => {
    const { reader, note, webhookUrl } = await connectReader('Behind');
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let begun!: () => void;
    const started = new Promise<void>((resolve) => {
      begun = resolve;
    });
    // A transaction with an id, older than the highlight's: the export cannot read past it.
    const blocker = env.deps.orm.em.fork().transactional(async (tx) => {
      await tx.execute('select pg_current_xact_id()');
      begun();
      await held;
    });
    await started;
    const since = now();
    await highlight(reader, note, 'A note in the margin is a letter to a later self');
    await waitFor(async () => {
      const row = await integrationRow(env.deps, reader.user.id, 'flomo');
      return row?.lastRunAt && row.lastRunAt.getTime() >= since ? row : undefined;
    });
    expect(flomo.memos(webhookUrl)).toHaveLength(0);
    release();
    await blocker;
    await waitFor(async () => (flomo.memos(webhookUrl).length ? true : undefined));
    await pushSettled(env.deps, reader.user.id, 'flomo', since);
    expect(flomo.memos(webhookUrl).map((m) => m.content)).toEqual([
      expect.stringContaining('letter to a later self'),
    ]);
  });

  test('a disabled integration pushes nothing', async () => {
    const { reader, note, webhookUrl } = await connectReader('Disabled');
    await reader.caller.sync.setEnabled({ app: 'flomo', enabled: false });
    await highlight(reader, note, 'Patience is a quiet discipline');
    // Nothing is queued for a highlight; a push asked for ("run once") runs and sends nothing.
    expect(await findJob(env.deps.queues, 'push', { userId: reader.user.id, app: 'flomo' })).toBeUndefined();
    const before = (await finishedPushJobs(env.deps, reader.user.id, 'flomo')).length;
    await reader.caller.sync.runOnce({ app: 'flomo' });
    const jobs = await pushJobsFinished(env.deps, reader.user.id, 'flomo', before + 1);
    expect(jobs.at(-1)?.returnvalue).toEqual({ status: 'skipped', count: 0 });
    expect(flomo.memos(webhookUrl)).toHaveLength(0);
  });
});
