import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkflowy, type WorkflowyServer } from '../helpers/push-servers.ts';
import {
  connectedReader,
  finishedPushJobs,
  highlight,
  integrationRow,
  now,
  type PushTestEnv,
  pushSettled,
  readerWithNote,
  startPushTestEnv,
} from '../helpers/push-setup.ts';

let env: PushTestEnv;
let workflowy: WorkflowyServer;

const TEXT =
  'Outlines grow from the top down. Every bullet can hold a world. ' +
  'A heading is a promise the children keep. Zoom in to think, zoom out to see.';

beforeAll(async () => {
  workflowy = await startWorkflowy();
  env = await startPushTestEnv({
    FETCH_ALLOW_TARGETS: workflowy.target,
    WORKFLOWY_API_ORIGIN: workflowy.origin,
  });
});
afterAll(async () => {
  await env?.close();
  await workflowy?.close();
});

const PARENT = '7f3c2a10-5b1d-4e2f-9a8b-0c1d2e3f4a5b';

async function connectReader(title: string) {
  const apiKey = workflowy.newKey();
  const { reader, note } = await connectedReader(
    env.deps,
    { title, text: TEXT },
    { app: 'workflowy', credentials: { apiKey, parentId: PARENT } },
  );
  return { reader, note, apiKey };
}

const requestsWith = (key: string) =>
  workflowy.received.filter((r) => r.headers.authorization === `Bearer ${key}`);

describe('connecting WorkFlowy', () => {
  test('a key WorkFlowy refuses is not saved; a good one is checked with a harmless call', async () => {
    const { reader } = await readerWithNote(env.deps, 'Keys', TEXT);
    await expect(
      reader.caller.sync.connectPush({
        app: 'workflowy',
        credentials: { apiKey: 'not-a-key', parentId: PARENT },
      }),
    ).rejects.toMatchObject({ message: 'errors.workflowyKeyInvalid' });
    expect((await integrationRow(env.deps, reader.user.id, 'workflowy'))?.bound ?? false).toBe(false);

    const apiKey = workflowy.newKey();
    const view = await reader.caller.sync.connectPush({
      app: 'workflowy',
      credentials: { apiKey, parentId: PARENT },
    });
    expect(view).toMatchObject({ app: 'workflowy', bound: true });
    expect(JSON.stringify(view)).not.toContain(apiKey);
    const [check] = requestsWith(apiKey);
    expect(check).toMatchObject({ method: 'GET', path: `/api/v1/nodes?parent_id=${PARENT}` });
    expect(workflowy.nodes(apiKey)).toEqual([]);
  });
});

describe('pushing to WorkFlowy', () => {
  test('a highlight is a node under the parent, updated in place when it changes, deleted with it', async () => {
    const { reader, note, apiKey } = await connectReader('Outlines');
    let since = now();
    const made = await highlight(reader, note, 'Every bullet can hold a world');
    expect(await pushSettled(env.deps, reader.user.id, 'workflowy', since)).toMatchObject({
      lastResult: 'ok',
    });
    const [node] = workflowy.nodes(apiKey);
    expect(node).toMatchObject({
      parentId: PARENT,
      name: expect.stringContaining('Every bullet can hold a world'),
    });

    since = now();
    await reader.caller.highlights.update({ id: made.id, annotation: 'Worlds all the way down.' });
    await pushSettled(env.deps, reader.user.id, 'workflowy', since);
    const nodes = workflowy.nodes(apiKey);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]?.id).toBe(node?.id);
    expect(`${nodes[0]?.name}\n${nodes[0]?.note}`).toContain('Worlds all the way down.');

    since = now();
    await reader.caller.highlights.delete({ id: made.id });
    await pushSettled(env.deps, reader.user.id, 'workflowy', since);
    expect(workflowy.nodes(apiKey)).toEqual([]);
    expect(
      requestsWith(apiKey)
        .filter((r) => r.method === 'DELETE')
        .map((r) => r.path),
    ).toEqual([`/api/v1/nodes/${node?.id}`]);
  });

  test("trashing a note deletes its highlights' nodes; restoring it makes them again", async () => {
    const { reader, note, apiKey } = await connectReader('Trash and back');
    let since = now();
    await highlight(reader, note, 'A heading is a promise the children keep');
    await pushSettled(env.deps, reader.user.id, 'workflowy', since);
    expect(workflowy.nodes(apiKey)).toHaveLength(1);

    since = now();
    await reader.caller.notes.trash({ ids: [note.id] });
    await pushSettled(env.deps, reader.user.id, 'workflowy', since);
    expect(workflowy.nodes(apiKey)).toEqual([]);

    since = now();
    await reader.caller.notes.restore({ ids: [note.id] });
    await pushSettled(env.deps, reader.user.id, 'workflowy', since);
    expect(workflowy.nodes(apiKey).map((n) => n.name)).toEqual([
      expect.stringContaining('A heading is a promise the children keep'),
    ]);
  });

  test('a node deleted in WorkFlowy is made again when its highlight changes', async () => {
    const { reader, note, apiKey } = await connectReader('Gone');
    let since = now();
    const made = await highlight(reader, note, 'Zoom in to think');
    await pushSettled(env.deps, reader.user.id, 'workflowy', since);
    const [first] = workflowy.nodes(apiKey);
    workflowy.deleteNode(apiKey, first?.id ?? '');
    since = now();
    await reader.caller.highlights.update({ id: made.id, annotation: 'And out to see.' });
    expect(await pushSettled(env.deps, reader.user.id, 'workflowy', since)).toMatchObject({
      lastResult: 'ok',
    });
    const nodes = workflowy.nodes(apiKey);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]?.id).not.toBe(first?.id);
    expect(`${nodes[0]?.name}\n${nodes[0]?.note}`).toContain('And out to see.');
  });

  test('429 with retry_after: the push waits that long, then sends, without spending an attempt', async () => {
    const { reader, note, apiKey } = await connectReader('Limited');
    workflowy.rateLimitNext(1);
    const since = now();
    await highlight(reader, note, 'A heading is a promise the children keep');
    expect(await pushSettled(env.deps, reader.user.id, 'workflowy', since)).toMatchObject({
      lastResult: 'ok',
    });
    // Two creations were asked for, a second apart at least; the first was turned away.
    const creates = workflowy.received
      .filter((r) => r.method === 'POST' && r.path === '/api/v1/nodes')
      .slice(-2);
    expect(creates[1]!.at - creates[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(workflowy.nodes(apiKey)).toHaveLength(1);
    const jobs = await finishedPushJobs(env.deps, reader.user.id, 'workflowy');
    expect(jobs.map((job) => job.attemptsMade)).not.toContain(2);
  });

  test.each([
    { contentType: 'text/html; charset=utf-8', lookupFails: false },
    { contentType: 'application/octet-stream', lookupFails: false },
    // The node is looked up right after: when that fails too, the retry finds the record and sends nothing.
    { contentType: 'text/html; charset=utf-8', lookupFails: true },
  ])(
    'a create answered 200 in words Margin cannot read ($contentType, lookup fails: $lookupFails) is one node, found by its content, never made again',
    async ({ contentType, lookupFails }) => {
      const { reader, note, apiKey } = await connectReader(`Garbled ${contentType} ${lookupFails}`);
      // Every answer to a create is garbled, as many as the job has attempts.
      workflowy.garbleNext(5, { method: 'POST', path: '/api/v1/nodes', contentType });
      if (lookupFails) workflowy.failNext(1, { path: `/api/v1/nodes?parent_id=${PARENT}` });
      try {
        let since = now();
        const made = await highlight(reader, note, 'Zoom in to think, zoom out to see');
        expect(await pushSettled(env.deps, reader.user.id, 'workflowy', since)).toMatchObject({
          lastResult: 'ok',
        });
        const creates = () =>
          requestsWith(apiKey).filter((r) => r.method === 'POST' && r.path === '/api/v1/nodes');
        expect(creates()).toHaveLength(1);
        const [node] = workflowy.nodes(apiKey);
        expect(workflowy.nodes(apiKey)).toHaveLength(1);

        // Changed, the node is updated in place: it is found among the parent's children.
        since = now();
        await reader.caller.highlights.update({ id: made.id, annotation: 'Both at once.' });
        await pushSettled(env.deps, reader.user.id, 'workflowy', since);
        expect(creates()).toHaveLength(1);
        expect(workflowy.nodes(apiKey)).toMatchObject([{ id: node?.id }]);
        expect(`${workflowy.nodes(apiKey)[0]?.note}`).toContain('Both at once.');

        since = now();
        await reader.caller.highlights.delete({ id: made.id });
        await pushSettled(env.deps, reader.user.id, 'workflowy', since);
        expect(workflowy.nodes(apiKey)).toEqual([]);
      } finally {
        workflowy.garbleNext(0, { method: 'POST', path: '/api/v1/nodes' });
      }
    },
  );

  test('a revoked key unbinds the integration and says why', async () => {
    const { reader, note, apiKey } = await connectReader('Revoked');
    workflowy.revoke(apiKey);
    const since = now();
    await highlight(reader, note, 'Outlines grow from the top down');
    await pushSettled(env.deps, reader.user.id, 'workflowy', since);
    expect(await reader.caller.sync.integration({ app: 'workflowy' })).toMatchObject({
      bound: false,
      lastResult: 'error',
      lastError: 'errors.pushKeyRevoked',
    });
    expect((await integrationRow(env.deps, reader.user.id, 'workflowy'))?.credentials ?? null).toBeNull();
  });
});
