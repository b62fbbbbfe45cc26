import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type FlomoServer,
  startFlomo,
  startWorkflowy,
  type WorkflowyServer,
} from '../helpers/push-servers.ts';
import {
  connectedReader,
  finishedPushJobs,
  highlight,
  now,
  type PushTestEnv,
  pushJobsFinished,
  pushSettled,
  startPushTestEnv,
} from '../helpers/push-setup.ts';

// Every push that fails leaves its reason on the integration, whichever way it failed. flomo's
// test server is on loopback and NOT allowed here: the guarded fetcher refuses its address.

let env: PushTestEnv;
let flomo: FlomoServer;
let workflowy: WorkflowyServer;

const TEXT = 'Links that leave Margin must work outside it. A failed push says why it failed.';

beforeAll(async () => {
  flomo = await startFlomo();
  workflowy = await startWorkflowy();
  env = await startPushTestEnv({
    FETCH_ALLOW_TARGETS: workflowy.target,
    FLOMO_API_ORIGIN: flomo.origin,
    WORKFLOWY_API_ORIGIN: workflowy.origin,
    PUBLIC_URL: '',
  });
});
afterAll(async () => {
  await env?.close();
  await flomo?.close();
  await workflowy?.close();
});

describe('a failed push says why', () => {
  test('an address the operator has not allowed fails at once with its reason, and Retry runs it again', async () => {
    const webhookUrl = flomo.newWebhook();
    const { reader, note } = await connectedReader(
      env.deps,
      { title: 'Refused', text: TEXT },
      { app: 'flomo', credentials: { webhookUrl } },
    );
    const since = now();
    await highlight(reader, note, 'A failed push says why it failed');
    const row = await pushSettled(env.deps, reader.user.id, 'flomo', since);
    expect(row).toMatchObject({ bound: true, lastResult: 'error', lastError: 'errors.pushAddressRefused' });
    const jobs = await finishedPushJobs(env.deps, reader.user.id, 'flomo');
    const refused = jobs.filter((job) => job.finishedOn && job.finishedOn >= since);
    // One attempt: no retry reaches an address that is not allowed.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.map((job) => job.attemptsMade)).toEqual(refused.map(() => 1));
    expect(flomo.received).toEqual([]);

    const before = jobs.length;
    await reader.caller.sync.retryPush({ app: 'flomo' });
    await pushJobsFinished(env.deps, reader.user.id, 'flomo', before + 1);
    expect(await reader.caller.sync.integration({ app: 'flomo' })).toMatchObject({
      lastResult: 'error',
      lastError: 'errors.pushAddressRefused',
    });
  });

  test('a WorkFlowy that fails every attempt records the failure; its nodes link to Margin absolutely', async () => {
    const apiKey = workflowy.newKey();
    const { reader, note } = await connectedReader(
      env.deps,
      { title: 'Exhausted', text: TEXT },
      { app: 'workflowy', credentials: { apiKey, parentId: 'parent-1' } },
    );
    workflowy.failNext(1000, { path: '/api/v1/nodes' });
    let since = now();
    await highlight(reader, note, 'Links that leave Margin must work outside it');
    const failed = await pushSettled(env.deps, reader.user.id, 'workflowy', since);
    expect(failed).toMatchObject({ lastResult: 'error', lastError: 'errors.pushFailed' });

    workflowy.failNext(0);
    since = now();
    await reader.caller.sync.retryPush({ app: 'workflowy' });
    expect(await pushSettled(env.deps, reader.user.id, 'workflowy', since)).toMatchObject({
      lastResult: 'ok',
      lastError: null,
    });
    const [node] = workflowy.nodes(apiKey);
    const { host, port } = env.deps.config;
    const origin = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
    expect(`${node?.name}\n${node?.note}`).toContain(`${origin}/?`);
    expect(`${node?.name}\n${node?.note}`).not.toMatch(/\]\(\/\?|[\s(]\/\?nx=/);
  });
});
