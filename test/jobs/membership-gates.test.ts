import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ConnectPushInput } from '../../src/schemas/sync.ts';
import { becomeMember, type MemberKind, memberUser } from '../helpers/membership.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import {
  type FlomoServer,
  startFlomo,
  startWorkflowy,
  type WorkflowyServer,
} from '../helpers/push-servers.ts';
import { highlight, now, type PushTestEnv, pushSettled, startPushTestEnv } from '../helpers/push-setup.ts';
import { waitFor } from '../helpers/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';

// The membership gates in the real workers, MEMBERSHIP=on: a push tool connected, or a webhook
// endpoint made, while PRO sends nothing once the membership has lapsed (the push records why,
// the endpoint is turned off with the reason), and works again once it is renewed.

let env: PushTestEnv;
let flomo: FlomoServer;
let workflowy: WorkflowyServer;
let receiver: WebhookReceiver;

const TEXT =
  'Patience is a quiet discipline. The river bends around the stone. Every margin holds a second voice.';
const WORKFLOWY_PARENT = '7f3c2a10-5b1d-4e2f-9a8b-0c1d2e3f4a5b';

beforeAll(async () => {
  [flomo, workflowy, receiver] = await Promise.all([startFlomo(), startWorkflowy(), startWebhookReceiver()]);
  env = await startPushTestEnv({
    MEMBERSHIP: 'on',
    FETCH_ALLOW_TARGETS: [flomo.target, workflowy.target, receiver.target].join(','),
    FLOMO_API_ORIGIN: flomo.origin,
    WORKFLOWY_API_ORIGIN: workflowy.origin,
  });
});
afterAll(async () => {
  await env?.close();
  await Promise.all([flomo?.close(), workflowy?.close(), receiver?.close()]);
});

/** New credentials for the tool, and the texts it holds from them (flomo memos, WorkFlowy nodes). */
function newConnection(app: 'flomo' | 'workflowy') {
  if (app === 'flomo') {
    const webhookUrl = flomo.newWebhook();
    const path = new URL(webhookUrl).pathname;
    return {
      input: { app, credentials: { webhookUrl } } satisfies ConnectPushInput,
      received: () => flomo.memos(webhookUrl).map((m) => m.content),
      requests: () => flomo.received.filter((r) => r.path === path).length,
    };
  }
  const apiKey = workflowy.newKey();
  return {
    input: { app, credentials: { apiKey, parentId: WORKFLOWY_PARENT } } satisfies ConnectPushInput,
    received: () => workflowy.nodes(apiKey).map((n) => `${n.name}\n${n.note}`),
    requests: () => workflowy.received.filter((r) => r.headers.authorization === `Bearer ${apiKey}`).length,
  };
}

describe('push workers', () => {
  test.each([
    ['flomo', 'expired', 'errors.membershipExpired'],
    ['workflowy', 'expired', 'errors.membershipExpired'],
    ['flomo', 'free', 'errors.onlyForPro'],
  ] as const)(
    '%s connected while PRO, then %s: the push records %s and sends nothing; renewed, a retry sends it',
    async (app, kind, refusal) => {
      const pro = await memberUser(env.deps, 'pro');
      const note = await makeClippedNote(env.deps, pro.user.id, { title: `Pushed to ${app}`, text: TEXT });
      const connection = newConnection(app);
      let since = now();
      await pro.caller.sync.connectPush(connection.input);
      await pushSettled(env.deps, pro.user.id, app, since);

      // A member still PRO: the highlight arrives.
      since = now();
      await highlight(pro, { id: note.id, text: TEXT }, 'quiet discipline');
      expect(await pushSettled(env.deps, pro.user.id, app, since)).toMatchObject({ lastResult: 'ok' });
      expect(connection.received().join('\n')).toContain('quiet discipline');

      const lapsed = await becomeMember(env.deps, pro, kind);
      const requestsBefore = connection.requests();
      since = now();
      await highlight(lapsed, { id: note.id, text: TEXT }, 'second voice');
      const refused = await pushSettled(env.deps, pro.user.id, app, since);
      expect(refused).toMatchObject({ bound: true, enabled: true, lastResult: 'error', lastError: refusal });
      expect(connection.requests()).toBe(requestsBefore);
      expect(connection.received().join('\n')).not.toContain('second voice');

      const renewed = await becomeMember(env.deps, pro, 'pro');
      since = now();
      await renewed.caller.sync.retryPush({ app });
      const resumed = await pushSettled(env.deps, pro.user.id, app, since);
      expect(resumed).toMatchObject({ lastResult: 'ok', lastError: null });
      expect(connection.received().join('\n')).toContain('second voice');
    },
  );
});

describe('webhook workers', () => {
  /** A member of `kind` with a note and an endpoint on the receiver for new highlights, made while PRO. */
  async function subscribedWhilePro(kind: MemberKind) {
    const pro = await memberUser(env.deps, 'pro');
    const note = await makeClippedNote(env.deps, pro.user.id, { title: 'Hooked', text: TEXT });
    const url = receiver.newUrl();
    const { endpoint } = await pro.caller.webhooks.create({ url, events: ['highlight.created'] });
    return {
      member: await becomeMember(env.deps, pro, kind),
      note: { id: note.id, text: TEXT },
      url,
      endpoint,
    };
  }

  test('a PRO member’s highlight is delivered', async () => {
    const { member, note, url } = await subscribedWhilePro('pro');
    await highlight(member, note, 'river bends');
    const [hook] = await receiver.waitFor(url, 1);
    expect(hook?.body).toMatchObject({ type: 'highlight.created' });
  });

  test('lapsed: the delivery run turns the endpoint off with the reason and sends nothing; renewed and turned on, it delivers again', async () => {
    const { member, note, url, endpoint } = await subscribedWhilePro('expired');
    await highlight(member, note, 'river bends');
    const off = await waitFor(
      async () => (await member.caller.webhooks.list()).find((e) => e.id === endpoint.id && !e.enabled),
      20_000,
      'the endpoint to be turned off',
    );
    expect(off).toMatchObject({ enabled: false, disabledReason: 'membership' });
    expect(off.disabledAt).not.toBeNull();
    const log = await member.caller.webhooks.deliveries({ id: endpoint.id, limit: 10 });
    expect(log.items).toMatchObject([{ type: 'highlight.created', status: 'failed', attempts: 0 }]);
    expect(receiver.received(url)).toEqual([]);

    const renewed = await becomeMember(env.deps, member, 'pro');
    await renewed.caller.webhooks.update({ id: endpoint.id, enabled: true });
    await highlight(renewed, note, 'second voice');
    const [hook] = await receiver.waitFor(url, 1);
    expect(hook?.body).toMatchObject({ type: 'highlight.created' });
    expect(receiver.received(url)).toHaveLength(1);
  });
});
