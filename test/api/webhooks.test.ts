// The webhooks router and the outbox, without workers: endpoints as their owner (and only their
// owner) manages them, and the events each change records in its own transaction.
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { translator } from '../../server/i18n.ts';
import { toErrorPayload } from '../../server/trpc/init.ts';
import { CoreType, Flow } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import {
  WEBHOOK_ENDPOINTS_PER_USER_MAX,
  WEBHOOK_EVENTS,
  type WebhookEvent,
} from '../../src/schemas/webhooks.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { highlight } from '../helpers/push-setup.ts';
import { signedInUser } from '../helpers/users.ts';

// An operator's allowed target (an intranet receiver): plain http is accepted for it alone.
const ALLOWED = '127.0.0.1:8089';

let deps: TestDeps;
beforeAll(async () => {
  deps = await createTestDeps({ FETCH_ALLOW_TARGETS: ALLOWED });
});
afterAll(() => deps.close());

type Reader = Awaited<ReturnType<typeof signedInUser>>;

/** The events recorded for an endpoint, oldest first: type and payload. */
async function outbox(endpointId: string) {
  const rows = await deps.orm.em
    .fork()
    .getConnection()
    .execute<
      { event_type: string; payload: { id: string; type: string; createAt: number; data: unknown } }[]
    >('select event_type, payload from webhook_delivery where endpoint_id = ? order by id', [endpointId]);
  return rows.map((row) => ({ type: row.event_type, data: row.payload.data as Record<string, unknown> }));
}

async function endpointOf(reader: Reader, events: WebhookEvent[] = [...WEBHOOK_EVENTS]) {
  return (await reader.caller.webhooks.create({ url: `https://hooks.example.com/${newId()}`, events }))
    .endpoint;
}

/** The translated message and key a refused call answers with. */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof TRPCError)) throw new Error(`expected a refusal, got ${String(error)}`);
  const payload = toErrorPayload(error);
  return { ...payload, text: translator('en')(payload.messageKey, payload.params) };
}

describe('endpoints', () => {
  test('https only, unless the operator allowed the target; refusals are translated and create nothing', async () => {
    const reader = await signedInUser(deps);
    const cases: [url: string, key: string][] = [
      ['http://hooks.example.com/margin', 'errors.webhookUrlNotHttps'],
      ['http://127.0.0.1:8090/hook', 'errors.webhookUrlNotHttps'],
      ['ftp://hooks.example.com/margin', 'errors.webhookUrlNotHttps'],
      // Schemes whose URL has no host: refused for the scheme, before any host is looked at.
      ['javascript:alert(1)', 'errors.webhookUrlNotHttps'],
      ['file:///etc/passwd', 'errors.webhookUrlNotHttps'],
      ['data:text/html,x', 'errors.webhookUrlNotHttps'],
      ['not a url', 'errors.webhookUrlInvalid'],
      ['https://user:pass@hooks.example.com/', 'errors.webhookUrlInvalid'],
      ['https://hooks.example.com:25/hook', 'errors.webhookUrlInvalid'],
      ['https://10.0.0.7/hook', 'errors.webhookUrlPrivate'],
      ['https://[::1]/hook', 'errors.webhookUrlPrivate'],
      ['https://localhost/hook', 'errors.webhookUrlPrivate'],
    ];
    for (const [url, key] of cases) {
      const refused = await refusal(reader.caller.webhooks.create({ url, events: ['note.created'] }));
      expect(refused, url).toMatchObject({ appCode: 'BAD_REQUEST', messageKey: key });
      expect(refused.text, url).not.toBe(key);
    }
    expect(
      await refusal(reader.caller.webhooks.create({ url: 'https://a.example', events: [] })),
    ).toMatchObject({
      messageKey: 'errors.webhookEventsEmpty',
      text: 'Choose at least one event.',
    });
    expect(await reader.caller.webhooks.list()).toEqual([]);

    const { endpoint } = await reader.caller.webhooks.create({
      url: `http://${ALLOWED}/hook#ignored`,
      events: ['daily.appended', 'note.created', 'note.created'],
    });
    expect(endpoint).toMatchObject({
      url: `http://${ALLOWED}/hook`,
      events: ['note.created', 'daily.appended'],
    });
  });

  test('at most 10 per account, even when created at once', async () => {
    const reader = await signedInUser(deps);
    const results = await Promise.allSettled(
      Array.from({ length: WEBHOOK_ENDPOINTS_PER_USER_MAX + 5 }, (_, i) =>
        reader.caller.webhooks.create({ url: `https://hooks.example.com/${i}`, events: ['note.created'] }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(WEBHOOK_ENDPOINTS_PER_USER_MAX);
    for (const failed of results.filter((r) => r.status === 'rejected')) {
      expect(toErrorPayload(failed.reason as TRPCError)).toMatchObject({
        appCode: 'CONFLICT',
        messageKey: 'errors.webhookLimit',
        params: { max: WEBHOOK_ENDPOINTS_PER_USER_MAX },
      });
    }
    expect(await reader.caller.webhooks.list()).toHaveLength(WEBHOOK_ENDPOINTS_PER_USER_MAX);
  });

  test("another user's endpoint ids → NOT_FOUND, and nothing changes", async () => {
    const owner = await signedInUser(deps);
    const { endpoint } = await owner.caller.webhooks.create({
      url: 'https://hooks.example.com/owner',
      events: ['note.updated'],
    });
    const secretBefore = await deps.orm.em
      .fork()
      .getConnection()
      .execute('select secret, url, enabled from webhook_endpoint where id = ?', [endpoint.id]);
    const other = await signedInUser(deps);
    const id = endpoint.id;
    const calls = [
      () => other.caller.webhooks.update({ id, url: 'https://evil.example/', enabled: false }),
      () => other.caller.webhooks.remove({ id }),
      () => other.caller.webhooks.rollSecret({ id }),
      () => other.caller.webhooks.deliveries({ id, limit: 10 }),
      () => other.caller.webhooks.sendTest({ id }),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await other.caller.webhooks.list()).toEqual([]);
    expect(await owner.caller.webhooks.list()).toEqual([endpoint]);
    expect(
      await deps.orm.em
        .fork()
        .getConnection()
        .execute('select secret, url, enabled from webhook_endpoint where id = ?', [endpoint.id]),
    ).toEqual(secretBefore);
    expect(await outbox(endpoint.id)).toEqual([]);
  });

  test('turned off, an endpoint gives up what waits and records nothing; removed, its log goes with it', async () => {
    const reader = await signedInUser(deps);
    const note = await makeClippedNote(deps, reader.user.id, { title: 'Off', text: 'Lights off.' });
    const endpoint = await endpointOf(reader, ['note.updated']);
    await reader.caller.webhooks.sendTest({ id: endpoint.id });
    const off = await reader.caller.webhooks.update({ id: endpoint.id, enabled: false });
    expect(off).toMatchObject({ enabled: false, disabledReason: null });
    expect((await reader.caller.webhooks.deliveries({ id: endpoint.id, limit: 10 })).items).toMatchObject([
      { type: 'ping', status: 'failed', attempts: 0 },
    ]);
    await reader.caller.notes.setFlow({ ids: [note.id], flow: Flow.later });
    expect(await outbox(endpoint.id)).toHaveLength(1);

    const changed = await reader.caller.webhooks.update({
      id: endpoint.id,
      url: 'https://hooks.example.com/moved',
      events: ['note.updated', 'highlight.deleted'],
      enabled: true,
    });
    expect(changed).toMatchObject({
      url: 'https://hooks.example.com/moved',
      events: ['note.updated', 'highlight.deleted'],
      enabled: true,
    });
    await reader.caller.notes.setFlow({ ids: [note.id], flow: Flow.shortlist });
    expect((await outbox(endpoint.id)).map((e) => e.type)).toEqual(['ping', 'note.updated']);

    await reader.caller.webhooks.remove({ id: endpoint.id });
    expect(await reader.caller.webhooks.list()).toEqual([]);
    expect(await outbox(endpoint.id)).toEqual([]);
    await expect(reader.caller.webhooks.remove({ id: endpoint.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  test('the delivery log pages newest first, without gaps or repeats', async () => {
    const reader = await signedInUser(deps);
    const endpoint = await endpointOf(reader);
    for (let i = 0; i < 5; i++) await reader.caller.webhooks.sendTest({ id: endpoint.id });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } =
        await reader.caller.webhooks.deliveries({ id: endpoint.id, limit: 2, cursor });
      seen.push(...page.items.map((d) => d.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(5);
    expect(seen).toEqual([...seen].sort((a, b) => Number(b) - Number(a)));
  });
});

describe('the outbox: what each change records', () => {
  test('notes: created once when clipped; updated only when something changed, with the note as it is', async () => {
    const reader = await signedInUser(deps);
    const endpoint = await endpointOf(reader, ['note.created', 'note.updated']);
    const { note } = await reader.caller.notes.clip({ url: 'https://articles.example/hooked' });
    await reader.caller.notes.clip({ url: 'https://articles.example/hooked' });
    const folder = await reader.caller.folders.create({ name: 'Hooks' });

    await reader.caller.notes.setFlow({ ids: [note.id], flow: Flow.later });
    await reader.caller.notes.setFlow({ ids: [note.id], flow: Flow.later });
    await reader.caller.notes.addTag({ ids: [note.id], tag: 'read' });
    await reader.caller.notes.addTag({ ids: [note.id], tag: 'read' });
    await reader.caller.notes.moveToFolder({ ids: [note.id], folderId: folder.id });
    await reader.caller.notes.trash({ ids: [note.id] });
    await reader.caller.notes.restore({ ids: [note.id] });
    await reader.caller.notes.renameTag({ from: 'read', to: 'done' });

    const events = await outbox(endpoint.id);
    expect(events.map((e) => e.type)).toEqual([
      'note.created',
      'note.updated',
      'note.updated',
      'note.updated',
      'note.updated',
      'note.updated',
      'note.updated',
    ]);
    expect(events[0]?.data).toEqual({
      id: note.id,
      title: expect.any(String),
      url: 'https://articles.example/hooked',
      flow: Flow.inbox,
      trashed: false,
      tags: [],
      folderId: null,
      createAt: Math.floor(note.createdAt / 1000),
      updateAt: Math.floor(note.updatedAt / 1000),
    });
    expect(events.slice(1).map((e) => e.data)).toMatchObject([
      { flow: Flow.later, tags: [] },
      { tags: ['read'] },
      { folderId: folder.id },
      { trashed: true },
      { trashed: false },
      { tags: ['done'] },
    ]);
  });

  test('highlights: created, updated and deleted once each; a retried create or an empty update records nothing', async () => {
    const reader = await signedInUser(deps);
    const text = 'Every word here was chosen with care.';
    const note = await makeClippedNote(deps, reader.user.id, { title: 'Care', text });
    const endpoint = await endpointOf(reader, [
      'highlight.created',
      'highlight.updated',
      'highlight.deleted',
    ]);
    const onlyNotes = await endpointOf(reader, ['note.created']);

    const made = await highlight(reader, { id: note.id, text }, 'chosen with care', { tags: ['craft'] });
    await reader.caller.highlights.create({
      id: made.id,
      noteId: note.id,
      coreType: CoreType.highlight,
      selectors: made.selectors,
    });
    await reader.caller.highlights.update({ id: made.id, slotId: made.slotId });
    await reader.caller.highlights.update({ id: made.id, slotId: 4, annotation: 'Yes' });
    await reader.caller.highlights.reattach({
      id: made.id,
      selectors: {
        quote: { type: 'TextQuoteSelector', exact: 'Every word', prefix: '', suffix: ' here' },
        position: { type: 'TextPositionSelector', start: 0, end: 10 },
      },
    });
    await reader.caller.notes.mergeTags({ from: ['craft'], to: 'writing' });
    await reader.caller.highlights.delete({ id: made.id });

    const events = await outbox(endpoint.id);
    expect(events.map((e) => e.type)).toEqual([
      'highlight.created',
      'highlight.updated',
      'highlight.updated',
      'highlight.updated',
      'highlight.deleted',
    ]);
    expect(events.map((e) => e.data)).toMatchObject([
      { id: made.id, noteId: note.id, text: 'chosen with care', tags: ['craft'], annotation: null },
      { slotId: 4, annotation: 'Yes' },
      { text: 'Every word', slotId: 4 },
      { tags: ['writing'] },
      { id: made.id, noteId: note.id },
    ]);
    expect(await outbox(onlyNotes.id)).toEqual([]);
  });

  test('daily notes: appended text and moved highlights, with the day and the note', async () => {
    const reader = await signedInUser(deps);
    const text = 'A line worth keeping for today.';
    const note = await makeClippedNote(deps, reader.user.id, { title: 'Worth', text });
    const endpoint = await endpointOf(reader, ['daily.appended']);
    const day = await reader.caller.daily.append({ text: 'Remember the milk' });
    const made = await highlight(reader, { id: note.id, text }, 'worth keeping');
    const moved = await reader.caller.daily.moveHighlights({ ids: [made.id], target: 'new' });

    const events = await outbox(endpoint.id);
    expect(events).toMatchObject([
      {
        type: 'daily.appended',
        data: {
          day: day.date,
          noteId: day.id,
          text: expect.stringMatching(/^\*\*\d\d:\d\d\*\* Remember the milk$/),
          highlightIds: [],
        },
      },
      {
        type: 'daily.appended',
        data: {
          day: day.date,
          noteId: moved.id,
          text: expect.stringContaining('> worth keeping'),
          highlightIds: [made.id],
        },
      },
    ]);
  });

  test("a change refused, or another user's, records nothing", async () => {
    const owner = await signedInUser(deps);
    const note = await makeClippedNote(deps, owner.user.id, { title: 'Mine', text: 'Mine alone.' });
    const endpoint = await endpointOf(owner);
    const other = await signedInUser(deps);
    await endpointOf(other);

    await expect(other.caller.notes.setFlow({ ids: [note.id], flow: Flow.archive })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      other.caller.highlights.create({
        id: newId(),
        noteId: note.id,
        coreType: CoreType.textNote,
        text: 'Sneaky',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      owner.caller.highlights.update({ id: newId(), annotation: 'Nothing to annotate' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const othersNote = await makeClippedNote(deps, other.user.id, { title: 'Theirs', text: 'Their words.' });
    await other.caller.notes.addTag({ ids: [othersNote.id], tag: 'theirs' });
    expect(await outbox(endpoint.id)).toEqual([]);
  });
});
