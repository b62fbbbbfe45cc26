// Webhook deliveries end to end: real workers POST through the guarded fetcher to a receiver on
// loopback (allowed by FETCH_ALLOW_TARGETS). Retries are driven by moving the app's clock past the
// backoff and starting the delayed job, never by sleeping.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clock } from '../../server/clock.ts';
import { createHighlight } from '../../server/domain/highlights/highlights.service.ts';
import { sweepWebhooks } from '../../server/domain/webhooks/queue.ts';
import { closeQueues, createQueues, createRedis } from '../../server/queue.ts';
import { CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { highlight } from '../helpers/push-setup.ts';
import { waitFor } from '../helpers/wait.ts';
import { signedWith } from '../helpers/webhook-receiver.ts';
import {
  advanceClock,
  deliveryLog,
  retryAfter,
  retryWaiting,
  startWebhookTestEnv,
  subscriber,
  type WebhookTestEnv,
} from '../helpers/webhook-setup.ts';

let env: WebhookTestEnv;
beforeAll(async () => {
  env = await startWebhookTestEnv();
});
afterAll(() => env?.close());

const SECOND = 1000;
const DAY = 24 * 3600 * SECOND;
const seconds = (ms: number) => Math.floor(ms / 1000);

describe('a delivery', () => {
  test('a created highlight arrives as highlight.created, signed with the secret shown once', async () => {
    const { reader, note, url, secret, endpoint } = await subscriber(env, 'The quiet harbour at dawn.', [
      'highlight.created',
    ]);
    expect(secret).toMatch(/^whsec_[\w-]{32}$/);
    // The secret is shown once: the list holds only its first characters.
    const listed = await reader.caller.webhooks.list();
    expect(listed).toMatchObject([{ id: endpoint.id, url, secretHint: secret.slice(0, 10), enabled: true }]);
    expect(JSON.stringify(listed)).not.toContain(secret);

    const made = await highlight(reader, note, 'quiet harbour', { annotation: 'Calm', tags: ['sea'] });
    const [hook] = await env.receiver.waitFor(url, 1);
    if (!hook) throw new Error('no request');

    expect(hook.headers['content-type']).toBe('application/json');
    expect(signedWith(hook, secret)).toBe(true);
    expect(signedWith(hook, `${secret}x`)).toBe(false);
    expect(hook.headers['margin-webhook-id']).toBe(hook.body.id);
    const timestamp = Number(hook.headers['margin-webhook-timestamp']);
    expect(Math.abs(timestamp - seconds(clock.now().getTime()))).toBeLessThan(60);
    expect(hook.body).toEqual({
      id: expect.any(String),
      type: 'highlight.created',
      createAt: expect.any(Number),
      data: {
        id: made.id,
        noteId: note.id,
        coreType: CoreType.highlight,
        text: 'quiet harbour',
        imageUrl: null,
        slotId: made.slotId,
        style: made.style,
        annotation: 'Calm',
        tags: ['sea'],
        createAt: seconds(made.createdAt),
        updateAt: seconds(made.updatedAt),
      },
    });

    await waitFor(async () =>
      (await deliveryLog(reader, endpoint.id))[0]?.status === 'delivered' ? true : undefined,
    );
    expect(await deliveryLog(reader, endpoint.id)).toMatchObject([
      { eventId: hook.body.id, type: 'highlight.created', status: 'delivered', attempts: 1, lastStatus: 204 },
    ]);
  });

  test('a receiver answering 500 twice gets it three times, 30 s then 60 s apart, and it ends delivered', async () => {
    const { reader, note, url, secret, endpoint } = await subscriber(env, 'Storms come and go.', [
      'highlight.created',
    ]);
    env.receiver.failNext(url, 2);
    await highlight(reader, note, 'Storms');

    const first = await retryWaiting(env, reader, endpoint.id, 1);
    expect(first.head).toMatchObject({ lastStatus: 500, lastError: null });
    expect(first.endpoint.retryAt.getTime() - (first.head.lastAttemptAt?.getTime() ?? 0)).toBe(30 * SECOND);
    expect(first.endpoint.failingSince).not.toBeNull();
    await retryAfter(env, endpoint.id, 30 * SECOND);

    const second = await retryWaiting(env, reader, endpoint.id, 2);
    expect(second.endpoint.retryAt.getTime() - (second.head.lastAttemptAt?.getTime() ?? 0)).toBe(60 * SECOND);
    await retryAfter(env, endpoint.id, 60 * SECOND);

    const hooks = await env.receiver.waitFor(url, 3);
    expect(hooks.map((h) => h.status)).toEqual([500, 500, 204]);
    // One event: the same id each time, each signed anew.
    expect(new Set(hooks.map((h) => h.body.id)).size).toBe(1);
    expect(hooks.every((h) => signedWith(h, secret))).toBe(true);
    await waitFor(async () =>
      (await deliveryLog(reader, endpoint.id))[0]?.status === 'delivered' ? true : undefined,
    );
    expect(await deliveryLog(reader, endpoint.id)).toMatchObject([
      { status: 'delivered', attempts: 3, lastStatus: 204 },
    ]);
    expect((await reader.caller.webhooks.list())[0]).toMatchObject({ failingSince: null, retryAt: null });
  });

  test('a redirect is a failure to retry, never followed', async () => {
    const { reader, note, url, endpoint } = await subscriber(env, 'Moved elsewhere.', ['highlight.created']);
    env.receiver.failNext(url, 1, 302);
    await highlight(reader, note, 'Moved');
    const { head } = await retryWaiting(env, reader, endpoint.id, 1);
    expect(head).toMatchObject({ status: 'pending', lastStatus: 302 });
    await retryAfter(env, endpoint.id, 30 * SECOND);
    await waitFor(async () =>
      (await deliveryLog(reader, endpoint.id))[0]?.status === 'delivered' ? true : undefined,
    );
    expect(env.receiver.received(`${url}/redirected`)).toEqual([]);
    expect(env.receiver.received(url).map((h) => h.status)).toEqual([302, 204]);
  });

  test('the events of one highlight arrive in order, even when the first attempt fails', async () => {
    const { reader, note, url, endpoint } = await subscriber(env, 'Order matters in a story.', [
      'highlight.created',
      'highlight.updated',
      'highlight.deleted',
    ]);
    env.receiver.failNext(url, 1);
    const made = await highlight(reader, note, 'Order matters');
    await retryWaiting(env, reader, endpoint.id, 1);
    // Recorded while the first waits for its retry: they wait behind it.
    await reader.caller.highlights.update({ id: made.id, annotation: 'Second thought' });
    await reader.caller.highlights.delete({ id: made.id });
    expect((await deliveryLog(reader, endpoint.id)).map((d) => [d.type, d.status])).toEqual([
      ['highlight.created', 'pending'],
      ['highlight.updated', 'pending'],
      ['highlight.deleted', 'pending'],
    ]);
    expect(env.receiver.received(url)).toHaveLength(1);

    await retryAfter(env, endpoint.id, 30 * SECOND);
    const hooks = await env.receiver.waitFor(url, 4);
    expect(hooks.map((h) => [h.body.type, h.status])).toEqual([
      ['highlight.created', 500],
      ['highlight.created', 204],
      ['highlight.updated', 204],
      ['highlight.deleted', 204],
    ]);
    expect(hooks[2]?.body.data).toMatchObject({ id: made.id, annotation: 'Second thought' });
    expect(hooks[3]?.body.data).toEqual({ id: made.id, noteId: note.id });
  });

  test('an endpoint failing for 3 days is disabled with its reason; turned on again, it receives', async () => {
    const { reader, note, url, endpoint } = await subscriber(env, 'Nobody answers here.', [
      'highlight.created',
    ]);
    env.receiver.failNext(url, 1000, 503);
    await highlight(reader, note, 'Nobody');
    await retryWaiting(env, reader, endpoint.id, 1);
    await retryAfter(env, endpoint.id, 3 * DAY);

    const disabled = await waitFor(async () => {
      const [view] = await reader.caller.webhooks.list();
      return view && !view.enabled ? view : undefined;
    });
    expect(disabled).toMatchObject({ disabledReason: 'failing', retryAt: null });
    expect(disabled.disabledAt).not.toBeNull();
    expect(await deliveryLog(reader, endpoint.id)).toMatchObject([
      { status: 'failed', attempts: 2, lastStatus: 503 },
    ]);
    // Disabled, it takes no events and no test.
    await highlight(reader, note, 'answers');
    expect(await deliveryLog(reader, endpoint.id)).toHaveLength(1);
    await expect(reader.caller.webhooks.sendTest({ id: endpoint.id })).rejects.toMatchObject({
      cause: { messageKey: 'errors.webhookDisabled' },
    });

    env.receiver.failNext(url, 0);
    const enabled = await reader.caller.webhooks.update({ id: endpoint.id, enabled: true });
    expect(enabled).toMatchObject({
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
    });
    await reader.caller.webhooks.sendTest({ id: endpoint.id });
    const hooks = await env.receiver.waitFor(url, 3);
    expect(hooks[2]).toMatchObject({
      status: 204,
      body: { type: 'ping', data: { endpointId: endpoint.id } },
    });
  });
});

describe('send test event and the secret', () => {
  test('a ping arrives at that endpoint only; after rolling the secret, deliveries are signed with the new one', async () => {
    const { reader, url, secret, endpoint } = await subscriber(env, 'Ping.', ['note.updated']);
    const otherUrl = env.receiver.newUrl();
    await reader.caller.webhooks.create({ url: otherUrl, events: ['note.updated'] });

    await reader.caller.webhooks.sendTest({ id: endpoint.id });
    const [ping] = await env.receiver.waitFor(url, 1);
    expect(ping?.body).toMatchObject({ type: 'ping', data: { endpointId: endpoint.id } });
    expect(ping && signedWith(ping, secret)).toBe(true);

    const rolled = await reader.caller.webhooks.rollSecret({ id: endpoint.id });
    expect(rolled.secret).not.toBe(secret);
    expect(rolled.endpoint.secretHint).toBe(rolled.secret.slice(0, 10));
    await reader.caller.webhooks.sendTest({ id: endpoint.id });
    const [, again] = await env.receiver.waitFor(url, 2);
    expect(again && signedWith(again, rolled.secret)).toBe(true);
    expect(again && signedWith(again, secret)).toBe(false);
    expect(env.receiver.received(otherUrl)).toEqual([]);
  });
});

describe('the sweep', () => {
  test('sends what a change recorded without queueing it, and purges the log after 30 days', async () => {
    const { reader, note, url, endpoint } = await subscriber(env, 'A script wrote this.', [
      'highlight.created',
    ]);
    // The change commits while its queue cannot be reached (its connection is closed): its
    // events are saved, and only the sweep will send them.
    const unreachable = createRedis(env.deps.config.redisUrl, 'producer');
    unreachable.on('error', () => {});
    const deadQueues = createQueues(unreachable, env.deps.config.redisPrefix);
    await unreachable.quit();
    try {
      await createHighlight({ ...env.deps, em: env.deps.orm.em.fork(), queues: deadQueues }, reader.user, {
        id: newId(),
        noteId: note.id,
        coreType: CoreType.textNote,
        text: 'Swept along',
        slotId: 1,
        style: 1,
        tags: [],
      });
    } finally {
      await closeQueues(deadQueues).catch(() => {});
      unreachable.disconnect();
    }
    // At least this endpoint: another test's last delivery may still be being marked delivered.
    expect((await sweepWebhooks(env.deps.orm.em.fork(), env.deps.queues)).queued).toBeGreaterThanOrEqual(1);
    const [hook] = await env.receiver.waitFor(url, 1);
    expect(hook?.body.data).toMatchObject({ text: 'Swept along', coreType: CoreType.textNote });
    await waitFor(async () =>
      (await deliveryLog(reader, endpoint.id))[0]?.status === 'delivered' ? true : undefined,
    );

    advanceClock(29 * DAY);
    await sweepWebhooks(env.deps.orm.em.fork(), env.deps.queues);
    expect(await deliveryLog(reader, endpoint.id)).toHaveLength(1);
    advanceClock(2 * DAY);
    expect((await sweepWebhooks(env.deps.orm.em.fork(), env.deps.queues)).purged).toBeGreaterThanOrEqual(1);
    expect(await deliveryLog(reader, endpoint.id)).toEqual([]);
  });
});
