import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clock, setClock } from '../../server/clock.ts';
import { Highlight, Note, NoteContent, StoredFile, User } from '../../server/db/entities/index.ts';
import { createApiToken, revokeApiToken } from '../../server/domain/openapi/api-tokens.ts';
import { IDEMPOTENCY_TTL_MS, purgeIdempotencyRecords } from '../../server/domain/openapi/idempotency.ts';
import { HOUR_MS } from '../../src/constants.ts';
import { newId } from '../../src/rules/id.ts';
import { DAILY_TEXT_MAX } from '../../src/schemas/daily.ts';
import { createTestDeps, TEST_NOW, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { apiClient, apiUser } from '../helpers/openapi.ts';
import { signedInUser } from '../helpers/users.ts';

// The Open API's own rules, over real HTTP: the envelope, bearer tokens and scopes, bodies read
// only after the token, owners, input errors, Idempotency-Key and the per-token rate limit. Every operation is also called
// through the generated client in openapi-client.test.ts.

let deps: TestDeps;
let server: RunningServer;
beforeAll(async () => {
  deps = await createTestDeps();
  server = await startServer(deps);
});
afterAll(async () => {
  await server.close();
  await deps.close();
});

const raw = (path: string, init: RequestInit = {}) => fetch(`${server.url}/openapi/v1${path}`, init);
const bearer = (token: string, extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${token}`,
  'Content-Type': 'application/json',
  ...extra,
});
const TEXT = 'Reading is a conversation. All books talk. But a good book listens as well.';

describe('envelope and times', () => {
  test('success is code 1 with the data; times are epoch seconds; lists page with next_cursor', async () => {
    const owner = await apiUser(deps);
    for (const title of ['one', 'two', 'three'])
      await makeClippedNote(deps, owner.user.id, { title, text: TEXT });
    const api = apiClient(server.url, owner.apiToken);
    const first = await api.GET('/notes', { params: { query: { limit: 2 } } });
    expect(first.response.status).toBe(200);
    expect(first.data?.code).toBe(1);
    expect(first.data?.data.items.map((n) => n.title)).toEqual(['three', 'two']);
    const note = first.data?.data.items[0];
    expect(Number.isInteger(note?.createAt)).toBe(true);
    expect(String(note?.createAt)).toHaveLength(10); // seconds, not milliseconds
    const cursor = first.data?.data.next_cursor;
    expect(cursor).toBeTruthy();
    const second = await api.GET('/notes', { params: { query: { limit: 2, cursor: cursor ?? '' } } });
    expect(second.data?.data.items.map((n) => n.title)).toEqual(['one']);
    expect(second.data?.data.next_cursor).toBeNull();
  });

  test('an unknown path is a 404 in the envelope; a bad cursor is refused, not a 500', async () => {
    const owner = await apiUser(deps);
    const unknown = await raw('/nothing-here', { headers: bearer(owner.apiToken) });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 404, data: null, error: { type: 'not_found' } });
    const badCursor = await raw('/notes?cursor=%E2%98%83not-a-cursor', { headers: bearer(owner.apiToken) });
    expect(badCursor.status).toBe(422);
    expect((await badCursor.json()).code).not.toBe(1);
  });
});

describe('tokens and scopes', () => {
  test('no token, an unknown one or a revoked one: 401, in the caller’s language', async () => {
    expect((await raw('/notes')).status).toBe(401);
    const unknown = await raw('/notes', { headers: bearer('mapi_unknown', { 'Accept-Language': 'zh-CN' }) });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer');
    const body = await unknown.json();
    expect(body).toMatchObject({ code: 401, data: null, error: { type: 'unauthorized' } });
    expect(body.message).toMatch(/[\u4e00-\u9fff]/);

    const owner = await apiUser(deps);
    const [view] = await (await import('../../server/domain/openapi/api-tokens.ts')).listApiTokens(
      deps.orm.em.fork(),
      owner.user,
    );
    await revokeApiToken(deps.orm.em.fork(), owner.user, { id: view?.id ?? 0 });
    expect((await raw('/notes', { headers: bearer(owner.apiToken) })).status).toBe(401);
  });

  test('a read token cannot write, and only a daily token reaches daily notes', async () => {
    const reader = await apiUser(deps, ['read']);
    const refused = await raw('/notes', {
      method: 'POST',
      headers: bearer(reader.apiToken),
      body: JSON.stringify({ url: 'https://example.test/a' }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { type: 'forbidden' } });
    expect(await deps.orm.em.fork().count(Note, { user: reader.user.id })).toBe(0);
    expect((await raw('/daily/today', { headers: bearer(reader.apiToken) })).status).toBe(403);
    expect((await raw('/notes', { headers: bearer(reader.apiToken) })).status).toBe(200);

    const daily = await apiUser(deps, ['daily']);
    expect((await raw('/daily/today', { headers: bearer(daily.apiToken) })).status).toBe(200);
    expect((await raw('/notes', { headers: bearer(daily.apiToken) })).status).toBe(403);
  });

  test('with membership on, only a PRO account may use the API', async () => {
    const member = await createTestDeps({ MEMBERSHIP: 'on' });
    const running = await startServer(member);
    try {
      const signedIn = await signedInUser(member);
      const refused = createApiToken(member.orm.em.fork(), member.config, signedIn.user, {
        name: 'free',
        scopes: ['read'],
        expiresInDays: null,
      });
      await expect(refused).rejects.toMatchObject({ code: 'FORBIDDEN', messageKey: 'errors.onlyForPro' });
      // A token made while PRO stops working for a free account.
      const pro = await apiUser(member, ['read'], 'pro');
      const notes = () => fetch(`${running.url}/openapi/v1/notes`, { headers: bearer(pro.apiToken) });
      expect((await notes()).status).toBe(200);
      await member.orm.em
        .fork()
        .nativeUpdate(User, { id: pro.user.id }, { memberLevel: 0, proExpiresAt: null });
      const answer = await notes();
      expect(answer.status).toBe(403);
      expect((await answer.json()).message).toBe('Only for PRO user');
    } finally {
      await running.close();
      await member.close();
    }
  });
});

describe('bodies', () => {
  const MB = 1024 * 1024;

  /**
   * POSTs a body declared `declared` bytes long but sends only its first 64 KB, and answers what
   * the server says meanwhile: an answer at all means it did not wait for the body.
   */
  function answerWithBodyHeldBack(path: string, headers: Record<string, string>, declared = 12 * MB) {
    return new Promise<{ status: number; body: { message: string; error: { type: string } } }>(
      (resolve, reject) => {
        const request = http.request(`${server.url}/openapi/v1${path}`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(declared) },
        });
        request.on('error', reject);
        request.on('response', async (response) => {
          let text = '';
          for await (const chunk of response) text += chunk;
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) });
        });
        request.write(`{"url":"https://example.test/held","html":"${'a'.repeat(64 * 1024)}`);
      },
    );
  }

  test('a 12 MB POST without a good token is refused before its body is sent', async () => {
    const anonymous = await answerWithBodyHeldBack('/notes', { 'Accept-Language': 'de' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('Dieses API-Token ist unbekannt, widerrufen oder abgelaufen.');
    expect((await answerWithBodyHeldBack('/notes', bearer('mapi_unknown'))).status).toBe(401);
    // A live token without the operation's scope is refused on its headers too.
    const reader = await apiUser(deps, ['read']);
    const unscoped = await answerWithBodyHeldBack('/notes', bearer(reader.apiToken));
    expect(unscoped.status).toBe(403);
    expect(unscoped.body.error.type).toBe('forbidden');
    expect(await deps.orm.em.fork().count(Note, { user: reader.user.id })).toBe(0);
  });

  test('with a good token, a body over the operation’s own cap is 413, translated; a page or a day may be larger', async () => {
    const owner = await apiUser(deps);
    const oversized = await raw('/folders', {
      method: 'POST',
      headers: bearer(owner.apiToken, { 'Accept-Language': 'de' }),
      body: JSON.stringify({ name: 'x'.repeat(300 * 1024) }),
    });
    expect(oversized.status).toBe(413);
    expect(await oversized.json()).toMatchObject({
      code: 413,
      message: 'Das ist zu groß.',
      data: null,
      error: { type: 'payload_too_large' },
    });
    expect(await owner.caller.folders.list()).toEqual([]);

    const page = await raw('/notes', {
      method: 'POST',
      headers: bearer(owner.apiToken),
      body: JSON.stringify({
        url: 'https://example.test/long-page',
        html: `<article><p>${TEXT}</p>${'<p>more</p>'.repeat(100_000)}</article>`,
      }),
    });
    expect(page.status).toBe(201);
    // The longest day in CJK: 600 KB.
    const day = await raw('/daily', {
      method: 'POST',
      headers: bearer(owner.apiToken),
      body: JSON.stringify({ text: '日'.repeat(DAILY_TEXT_MAX) }),
    });
    expect(day.status).toBe(201);
  });
});

describe('owners and input', () => {
  test('another user’s note and highlight are not found, and nothing of theirs changes', async () => {
    const owner = await apiUser(deps);
    const stranger = await apiUser(deps);
    const note = await makeClippedNote(deps, owner.user.id, { title: 'mine', text: TEXT });
    const created = await apiClient(server.url, owner.apiToken).POST('/highlights', {
      body: { noteId: note.id, coreType: 1, quote: 'All books talk.' },
    });
    const highlightId = created.data?.data.id ?? '';
    const api = apiClient(server.url, stranger.apiToken);
    const answers = [
      await api.GET('/notes/{id}', { params: { path: { id: note.id } } }),
      await api.PATCH('/notes/{id}', { params: { path: { id: note.id } }, body: { flow: 9, tags: ['x'] } }),
      await api.POST('/notes/{id}/trash', { params: { path: { id: note.id } } }),
      await api.DELETE('/notes/{id}', { params: { path: { id: note.id } } }),
      await api.GET('/highlights/{id}', { params: { path: { id: highlightId } } }),
      await api.PATCH('/highlights/{id}', { params: { path: { id: highlightId } }, body: { slotId: 3 } }),
      await api.DELETE('/highlights/{id}', { params: { path: { id: highlightId } } }),
      await api.POST('/highlights', { body: { noteId: note.id, coreType: 1, quote: 'All books talk.' } }),
    ];
    expect(answers.map((a) => a.response.status)).toEqual([404, 404, 404, 404, 404, 404, 404, 404]);
    const em = deps.orm.em.fork();
    const after = await em.findOneOrFail(Note, note.id);
    expect([after.flow, after.tags, after.trashedAt]).toEqual([note.flow, [], null]);
    expect((await em.findOneOrFail(Highlight, { id: highlightId, user: owner.user.id })).slotId).toBe(
      created.data?.data.slotId,
    );
    expect(await em.count(Highlight, { note: note.id })).toBe(1);
  });

  test('bad input is a 422 naming the field, translated, and stores nothing', async () => {
    const owner = await apiUser(deps);
    const note = await makeClippedNote(deps, owner.user.id, { title: 'mine', text: TEXT });
    const cases: [string, unknown, string][] = [
      ['/notes', { url: 'https://example.test/\u0000' }, 'url'],
      ['/notes', { url: 'x'.repeat(9000) }, 'url'],
      ['/highlights', { noteId: note.id, coreType: 1, quote: 'not in the text at all' }, ''],
      ['/highlights', { noteId: note.id, coreType: 1, selectors: { quote: { exact: '' } } }, 'selectors'],
      ['/highlights', { noteId: note.id, coreType: 7, text: 'x' }, 'coreType'],
      ['/daily/today/append', { text: '\ud800' }, 'text'],
    ];
    for (const [path, body, field] of cases) {
      const answer = await raw(path, {
        method: 'POST',
        headers: bearer(owner.apiToken),
        body: JSON.stringify(body),
      });
      const json = await answer.json();
      expect(answer.status, `${path} ${JSON.stringify(body).slice(0, 60)}`).toBe(422);
      expect(json).toMatchObject({ data: null, error: { type: 'invalid_input' } });
      if (field) {
        const paths: string[] = json.error.fields.map((f: { path: string }) => f.path);
        expect(paths.some((path) => path === field || path.startsWith(`${field}.`))).toBe(true);
      }
      expect(json.message).not.toMatch(/^errors\./);
    }
    const em = deps.orm.em.fork();
    expect(await em.count(Note, { user: owner.user.id })).toBe(1);
    expect(await em.count(Highlight, { user: owner.user.id })).toBe(0);
    const query = await raw('/notes?limit=1000', { headers: bearer(owner.apiToken) });
    expect(query.status).toBe(422);
    expect((await query.json()).error.fields[0].path).toBe('limit');
  });
});

describe('webhook events of API writes', () => {
  test('a PATCH of state, tags and folder is one note.updated with the note as it ends up; DELETE records none', async () => {
    const owner = await apiUser(deps);
    const note = await makeClippedNote(deps, owner.user.id, { title: 'mine', text: TEXT });
    const other = await makeClippedNote(deps, owner.user.id, { title: 'gone', text: TEXT });
    const folder = await owner.caller.folders.create({ name: 'Hooked' });
    const { endpoint } = await owner.caller.webhooks.create({
      url: `https://hooks.example.com/${newId()}`,
      events: ['note.updated'],
    });
    const api = apiClient(server.url, owner.apiToken);
    const patched = await api.PATCH('/notes/{id}', {
      params: { path: { id: note.id } },
      body: { flow: 9, tags: ['kept', 'kept'], folderId: folder.id },
    });
    expect(patched.data?.data).toMatchObject({ flow: 9, tags: ['kept'], folderId: folder.id });
    expect((await api.DELETE('/notes/{id}', { params: { path: { id: other.id } } })).response.status).toBe(
      200,
    );

    const rows = await deps.orm.em
      .fork()
      .getConnection()
      .execute<{ event_type: string; payload: { data: Record<string, unknown> } }[]>(
        'select event_type, payload from webhook_delivery where endpoint_id = ? order by id',
        [endpoint.id],
      );
    expect(rows.map((row) => [row.event_type, row.payload.data.id])).toEqual([['note.updated', note.id]]);
    expect(rows[0]?.payload.data).toMatchObject({ flow: 9, tags: ['kept'], folderId: folder.id });
  });
});

describe('Idempotency-Key', () => {
  test('a retried create returns the first answer and makes nothing twice, even in parallel', async () => {
    const owner = await apiUser(deps);
    const note = await makeClippedNote(deps, owner.user.id, { title: 'mine', text: TEXT });
    const key = `retry-${newId()}`;
    const send = (quote: string) =>
      raw('/highlights', {
        method: 'POST',
        headers: bearer(owner.apiToken, { 'Idempotency-Key': key }),
        body: JSON.stringify({ noteId: note.id, coreType: 1, quote }),
      });
    const parallel = await Promise.all(Array.from({ length: 6 }, () => send('All books talk.')));
    const statuses = parallel.map((a) => a.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const ids = new Set(
      (await Promise.all(parallel.map((a) => a.json()))).filter((b) => b.code === 1).map((b) => b.data.id),
    );
    expect(ids.size).toBe(1);
    const retry = await send('All books talk.');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await retry.json()).data.id).toBe([...ids][0]);
    expect(await deps.orm.em.fork().count(Highlight, { user: owner.user.id })).toBe(1);

    const reused = await send('a good book listens');
    expect(reused.status).toBe(422);
    expect(await deps.orm.em.fork().count(Highlight, { user: owner.user.id })).toBe(1);
  });
  test('a key is kept 24 hours: then it makes a new note, and the purge drops the old answer', async () => {
    const owner = await apiUser(deps);
    const create = (url: string) =>
      raw('/notes', {
        method: 'POST',
        headers: bearer(owner.apiToken, { 'Idempotency-Key': 'daily-import' }),
        body: JSON.stringify({ url, html: `<article><p>${url} ${TEXT}</p></article>` }),
      });
    const first = await (await create('https://example.test/first')).json();
    const start = clock.now().getTime();
    const keptRows = () =>
      deps.orm.em
        .fork()
        .getConnection()
        .execute('select 1 from idempotency_record where user_id = ?', [owner.user.id]);
    try {
      // An hour each side of the lifetime: a slow first request must not decide the outcome.
      setClock(new Date(start + IDEMPOTENCY_TTL_MS - HOUR_MS));
      const retried = await create('https://example.test/first');
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      expect((await retried.json()).data.note.id).toBe(first.data.note.id);
      setClock(new Date(start + IDEMPOTENCY_TTL_MS + HOUR_MS));
      const later = await create('https://example.test/second');
      expect(later.headers.get('idempotent-replayed')).toBeNull();
      expect((await later.json()).data.note.id).not.toBe(first.data.note.id);
      expect(await keptRows()).toHaveLength(1);
      setClock(new Date(start + 2 * IDEMPOTENCY_TTL_MS + 2 * HOUR_MS));
      await purgeIdempotencyRecords(deps.orm.em.fork());
      expect(await keptRows()).toHaveLength(0);
    } finally {
      setClock(TEST_NOW);
    }
    const badKey = await raw('/notes', {
      method: 'POST',
      headers: bearer(owner.apiToken, { 'Idempotency-Key': 'has spaces' }),
      body: JSON.stringify({ url: 'https://example.test/third' }),
    });
    expect(badKey.status).toBe(422);
  });
});

describe('rate limit', () => {
  test('each token has its window: over it, 429 with Retry-After; every answer says what is left', async () => {
    const owner = await apiUser(deps, ['read']);
    const other = await apiUser(deps, ['read']);
    // Membership off: everyone has the pro row's rate.
    const max = deps.config.membershipConfig.plans.pro.quotas.apiRequestsPerMinute;
    const answers = await Promise.all(
      Array.from({ length: max + 5 }, () => raw('/tags', { headers: bearer(owner.apiToken) })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const refused = answers.find((a) => a.status === 429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused?.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused?.headers.get('ratelimit-limit')).toBe(String(max));
    expect(await refused?.json()).toMatchObject({ code: 429, error: { type: 'too_many_requests' } });
    const fresh = await raw('/tags', { headers: bearer(other.apiToken) });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('ratelimit-remaining')).toBe(String(max - 1));
  });
});

describe('a note’s article', () => {
  test('the API serves the article the reader shows: Margin’s copy of a stored image, a placeholder for one not stored yet', async () => {
    const owner = await apiUser(deps);
    const note = await makeClippedNote(deps, owner.user.id, { title: 'Pictures', text: TEXT });
    const em = deps.orm.em.fork();
    const stored = 'https://pages.example/stored.png';
    const waiting = 'https://pages.example/waiting.png';
    await em.nativeUpdate(
      NoteContent,
      { note: note.id },
      {
        contentHtml: `<p>${TEXT}</p><p><img src="${stored}" alt="Stored"></p><p><img src="${waiting}" alt="Waiting"></p>`,
      },
    );
    const hash = 'a'.repeat(64);
    em.create(StoredFile, {
      user: owner.user.id,
      note: note.id,
      sourceUrl: stored,
      key: `${owner.user.id}/images/${note.id}/${hash}.png`,
      contentType: 'image/png',
      bytes: 100,
      width: 320,
      height: 160,
      hash,
    });
    await em.flush();

    const reader = await owner.caller.notes.get({ id: note.id });
    const api = await apiClient(server.url, owner.apiToken).GET('/notes/{id}', {
      params: { path: { id: note.id } },
    });
    expect(api.response.status).toBe(200);
    expect(api.data?.data.contentHtml).toBe(reader.contentHtml);
    expect(reader.contentHtml).toContain(`/files/images/${hash}.png`);
    expect(reader.contentHtml).toContain('data-state="pending"');
    expect(reader.contentHtml).not.toContain('src="https://pages.example');
    expect(api.data?.data.text).toBe(reader.text);
  });
});
