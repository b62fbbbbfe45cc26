import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { clock, setClock } from '../../server/clock.ts';
import { User } from '../../server/db/entities/index.ts';
import { openApiDocument } from '../../server/openapi/document.ts';
import type { Operation } from '../../server/openapi/operation.ts';
import { OPERATIONS } from '../../server/openapi/operations/index.ts';
import { ClipStatus, CoreType, Flow, ViewStyle } from '../../src/enums.ts';
import { createTestDeps, TEST_NOW, type TestDeps } from '../helpers/deps.ts';
import { pageFile, postUploadForm } from '../helpers/extension.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { clipSettled, makeClippedNote } from '../helpers/notes.ts';
import { type ApiClient, apiClient, apiUser } from '../helpers/openapi.ts';
import { article, html, startSite, type TestSite } from '../helpers/site.ts';
import type { components, operations } from '../openapi/schema.d.ts';

// Every Open API operation called through the client generated from the document
// (test/openapi/schema.d.ts + openapi-fetch) against the real server and workers: what each
// answers, that the change shows in another read, another user's ids (404, nothing changed) and
// bad input (422 naming the field). The last two tests fail when an operation goes unexercised
// or answers a status its document does not list. openapi.test.ts has the API's own rules
// (envelope, scopes, idempotency, rate limit).

let deps: TestDeps;
let server: RunningServer;
let workers: RunningWorkers;
let site: TestSite;

const PARAGRAPHS = [
  'Margin keeps what you read. This first paragraph is long enough to count as real article text for the parser.',
  'A second paragraph follows with more words, so that the extractor sees a proper body and not a teaser.',
  'The third paragraph closes the article and mentions highlights, notes and daily reviews in passing.',
];
const TEXT = 'Reading is a conversation. All books talk. But a good book listens as well.';

beforeAll(async () => {
  site = await startSite({
    '/article': html(article('A calm article', PARAGRAPHS)),
    '/sent-as-html': html(article('Fetched, which it must not be', PARAGRAPHS)),
  });
  deps = await createTestDeps({ FETCH_ALLOW_TARGETS: site.target });
  workers = await startWorkers(deps);
  server = await startServer(deps);
});
afterAll(async () => {
  await server.close();
  await workers.close();
  await deps.close();
  await site.close();
});

// --- what was called -----------------------------------------------------------------------

type Role = 'owner' | 'stranger';
/** Per operationId, each `role status` it answered through the generated client. */
const answered = new Map<string, Set<string>>();

/** The generated client acting with `token`, noting what each operation answered. */
function client(token: string, role: Role = 'owner'): ApiClient {
  const api = apiClient(server.url, token);
  api.use({
    onResponse({ request, schemaPath, response }) {
      const op = OPERATIONS.find((o) => o.method === request.method.toLowerCase() && o.path === schemaPath);
      if (!op) throw new Error(`no operation is ${request.method} ${schemaPath}`);
      const seen = answered.get(op.operationId) ?? new Set<string>();
      seen.add(`${role} ${response.status}`);
      answered.set(op.operationId, seen);
    },
  });
  return api;
}

/** A user with an all-scopes token and a client acting for them. */
async function owner() {
  const user = await apiUser(deps);
  return { ...user, api: client(user.apiToken) };
}

/** Another user, whose client's answers count as a stranger's. */
async function stranger() {
  const user = await apiUser(deps);
  return { ...user, api: client(user.apiToken, 'stranger') };
}

interface Answer<T> {
  data?: { code: 1; data: T };
  error?: unknown;
  response: Response;
}

/** The data of a successful answer (code 1 with `status`). */
function dataOf<T>(answer: Answer<T>, status = 200): T {
  expect(answer.response.status, JSON.stringify(answer.error)).toBe(status);
  expect(answer.data?.code).toBe(1);
  return answer.data?.data as T;
}

function expectNotFound(answer: Answer<unknown>): void {
  expect(answer.response.status, JSON.stringify(answer.data ?? answer.error)).toBe(404);
  expect(answer.error).toMatchObject({ code: 404, data: null, error: { type: 'not_found' } });
}

/** A 422 whose fields name `field`, with a message that is translated text. */
function expectRefused(answer: Answer<unknown>, field: string): void {
  expect(answer.response.status, JSON.stringify(answer.data ?? answer.error)).toBe(422);
  const error = answer.error as { code: number; message: string; error: { fields?: { path: string }[] } };
  expect(error.code).toBe(422);
  expect(error.error.fields?.map((f) => f.path)).toContain(field);
  expect(error.message).not.toMatch(/^errors\./);
}

const ids = (items: { id: string }[]) => items.map((item) => item.id);

// --- notes -----------------------------------------------------------------------------------

describe('notes', () => {
  test('create from a URL: queued, then clipped by the worker; saving it again is the same note', async () => {
    const { api } = await owner();
    const url = `${site.origin}/article`;
    const created = dataOf(await api.POST('/notes', { body: { url } }), 201);
    expect(created.created).toBe(true);
    expect(created.note).toMatchObject({ url, clipStatus: ClipStatus.queued, highlightCount: 0 });

    await clipSettled(deps, created.note.id);
    const read = dataOf(await api.GET('/notes/{id}', { params: { path: { id: created.note.id } } }));
    expect(read).toMatchObject({
      id: created.note.id,
      title: 'A calm article',
      siteName: 'Test Site',
      author: 'Ada Lovelace',
      clipStatus: ClipStatus.done,
      highlights: [],
    });
    expect(read.text).toContain(PARAGRAPHS[1]);
    expect(read.contentHtml).toContain('<p>');
    expect(read.wordCount).toBeGreaterThan(40);

    const again = dataOf(await api.POST('/notes', { body: { url } }), 201);
    expect([again.created, again.note.id]).toEqual([false, created.note.id]);
    const list = dataOf(await api.GET('/notes', {}));
    expect(ids(list.items)).toEqual([created.note.id]);

    expectRefused(await api.POST('/notes', { body: { url: '   ' } }), 'url');
    expectRefused(await api.POST('/notes', { body: { url: `${site.origin}/x`, html: '' } }), 'html');
    expect(dataOf(await api.GET('/notes', {})).items).toHaveLength(1);
  });

  test('create from HTML: the page sent is parsed and never fetched', async () => {
    const { api } = await owner();
    const url = `${site.origin}/sent-as-html`;
    const created = dataOf(
      await api.POST('/notes', { body: { url, html: article('Sent by the extension', PARAGRAPHS) } }),
      201,
    );
    expect(created.created).toBe(true);
    await clipSettled(deps, created.note.id);
    const read = dataOf(await api.GET('/notes/{id}', { params: { path: { id: created.note.id } } }));
    expect([read.title, read.clipStatus, read.url]).toEqual(['Sent by the extension', ClipStatus.done, url]);
    expect(read.text).toContain(PARAGRAPHS[2]);
    expect(site.hits.get('/sent-as-html')).toBeUndefined();
  });

  test('list: newest first, by state, tag, folder and search', async () => {
    const { api, user } = await owner();
    const talk = await makeClippedNote(deps, user.id, { title: 'Talk', text: TEXT, tags: ['books'] });
    const archived = await makeClippedNote(deps, user.id, {
      title: 'Filed away',
      text: 'An archived page about gardening and soil.',
      flow: Flow.archive,
    });
    const latest = await makeClippedNote(deps, user.id, { title: 'Latest', text: 'Weather notes.' });
    const folder = dataOf(await api.POST('/folders', { body: { name: 'Reading' } }), 201);
    dataOf(
      await api.PATCH('/notes/{id}', { params: { path: { id: latest.id } }, body: { folderId: folder.id } }),
    );

    const list = async (query: operations['listNotes']['parameters']['query'] = {}) =>
      ids(dataOf(await api.GET('/notes', { params: { query } })).items);
    expect(await list()).toEqual([latest.id, archived.id, talk.id]);
    expect(await list({ nav: 'archive' })).toEqual([archived.id]);
    expect(await list({ nav: 'unarchive' })).toEqual([latest.id, talk.id]);
    expect(await list({ tag: 'books' })).toEqual([talk.id]);
    expect(await list({ folderId: folder.id })).toEqual([latest.id]);
    expect(await list({ q: 'conversation' })).toEqual([talk.id]);

    const page = dataOf(await api.GET('/notes', { params: { query: { limit: 1 } } }));
    expect(page.items[0]).toMatchObject({
      id: latest.id,
      title: 'Latest',
      flow: Flow.inbox,
      folderId: folder.id,
    });
    expect(page.next_cursor).toEqual(expect.any(String));

    const theirs = await stranger();
    const theirFolder = dataOf(await theirs.api.POST('/folders', { body: { name: 'Theirs' } }), 201);
    expectNotFound(await api.GET('/notes', { params: { query: { folderId: theirFolder.id } } }));
    expectNotFound(await theirs.api.GET('/notes', { params: { query: { folderId: folder.id } } }));

    expectRefused(await api.GET('/notes', { params: { query: { q: 'x'.repeat(201) } } }), 'q');
  });

  test('update: state, tags replaced, into a folder and out; answered as it now is', async () => {
    const { api, user } = await owner();
    const note = await makeClippedNote(deps, user.id, { title: 'Mine', text: TEXT, tags: ['old'] });
    const folder = dataOf(await api.POST('/folders', { body: { name: 'Later' } }), 201);
    const get = async () => dataOf(await api.GET('/notes/{id}', { params: { path: { id: note.id } } }));
    const patch = (body: components['schemas']['UpdateNote']) =>
      api.PATCH('/notes/{id}', { params: { path: { id: note.id } }, body });

    const starred = dataOf(await patch({ flow: Flow.shortlist, tags: ['a', 'b', 'a'], folderId: folder.id }));
    expect(starred).toMatchObject({
      id: note.id,
      flow: Flow.shortlist,
      tags: ['a', 'b'],
      folderId: folder.id,
    });
    expect(await get()).toMatchObject({ flow: Flow.shortlist, tags: ['a', 'b'], folderId: folder.id });
    expect(dataOf(await api.GET('/folders')).items).toEqual([
      expect.objectContaining({ id: folder.id, noteCount: 1 }),
    ]);

    expect(dataOf(await patch({ tags: ['c'] })).tags).toEqual(['c']);
    expect((await get()).tags).toEqual(['c']);
    expect(dataOf(await api.GET('/tags')).items.map((t) => t.tag)).toEqual(['c']);

    const out = dataOf(await patch({ folderId: null }));
    expect([out.folderId, out.flow, out.tags]).toEqual([null, Flow.shortlist, ['c']]);
    expect((await get()).folderId).toBeNull();
    expect(dataOf(await api.GET('/folders')).items[0]?.noteCount).toBe(0);

    // Another user's folder: not found, and nothing of the update happens.
    const theirs = await stranger();
    const theirFolder = dataOf(await theirs.api.POST('/folders', { body: { name: 'Theirs' } }), 201);
    expectNotFound(await patch({ flow: Flow.archive, tags: ['x'], folderId: theirFolder.id }));
    expect(await get()).toMatchObject({ flow: Flow.shortlist, tags: ['c'], folderId: null });

    expectRefused(await patch({ tags: ['a,b'] }), 'tags.0');
    expectRefused(await patch({ flow: 5 as Flow }), 'flow');
    expect(await get()).toMatchObject({ flow: Flow.shortlist, tags: ['c'] });
  });

  test('trash, restore, delete for good (with its highlights)', async () => {
    const { api, user } = await owner();
    const note = await makeClippedNote(deps, user.id, { title: 'Mine', text: TEXT });
    const path = { params: { path: { id: note.id } } };
    const listed = async (nav: 'all' | 'trash') =>
      ids(dataOf(await api.GET('/notes', { params: { query: { nav } } })).items);

    expect(dataOf(await api.POST('/notes/{id}/trash', path))).toMatchObject({ id: note.id, title: 'Mine' });
    expect([await listed('all'), await listed('trash')]).toEqual([[], [note.id]]);

    // Another user cannot take it out of the trash.
    const theirs = await stranger();
    expectNotFound(await theirs.api.POST('/notes/{id}/restore', path));
    expect(await listed('trash')).toEqual([note.id]);

    expect(dataOf(await api.POST('/notes/{id}/restore', path)).id).toBe(note.id);
    expect([await listed('all'), await listed('trash')]).toEqual([[note.id], []]);

    const highlight = dataOf(
      await api.POST('/highlights', {
        body: { noteId: note.id, coreType: CoreType.highlight, quote: 'All books talk.' },
      }),
      201,
    );
    expect(dataOf(await api.DELETE('/notes/{id}', path))).toEqual({ deleted: true });
    expectNotFound(await api.GET('/notes/{id}', path));
    expectNotFound(await api.GET('/highlights/{id}', { params: { path: { id: highlight.id } } }));
    expect([await listed('all'), await listed('trash')]).toEqual([[], []]);
  });

  test('export as text, article, highlights and Markdown', async () => {
    const { api, user } = await owner();
    const note = await makeClippedNote(deps, user.id, { title: 'Talk', text: TEXT });
    dataOf(
      await api.POST('/highlights', {
        body: {
          noteId: note.id,
          coreType: CoreType.highlight,
          quote: 'All books talk.',
          annotation: 'So true',
        },
      }),
      201,
    );
    const exported = async (format: 'text' | 'article' | 'highlights' | 'markdown') =>
      dataOf(await api.GET('/notes/{id}/export', { params: { path: { id: note.id }, query: { format } } }));

    expect(await exported('text')).toEqual({
      filename: 'Talk.txt',
      mimeType: 'text/plain;charset=utf-8',
      content: `Talk\n${note.url}\n\n${TEXT}\n`,
    });
    expect(await exported('article')).toEqual({
      filename: `${note.id}.html`,
      mimeType: 'text/html',
      content: `<p>${TEXT}</p>`,
    });
    expect(await exported('highlights')).toEqual({
      filename: 'Talk - highlights.md',
      mimeType: 'text/markdown;charset=utf-8',
      content: `# Talk\n\nSource: <${note.url}>\n\n> All books talk.\n\nSo true\n`,
    });
    const markdown = await exported('markdown');
    expect([markdown.filename, markdown.mimeType]).toEqual(['Talk.md', 'text/markdown;charset=utf-8']);
    expect(markdown.content).toBe(`# Talk\n\nSource: <${note.url}>\n\n${TEXT}\n`);
    // Markdown when no format is given.
    const plain = dataOf(await api.GET('/notes/{id}/export', { params: { path: { id: note.id } } }));
    expect(plain).toEqual(markdown);

    const theirs = await stranger();
    expectNotFound(
      await theirs.api.GET('/notes/{id}/export', {
        params: { path: { id: note.id }, query: { format: 'text' } },
      }),
    );
    expectRefused(
      await api.GET('/notes/{id}/export', {
        // Past the generated types on purpose: the server must refuse it.
        params: { path: { id: note.id }, query: { format: 'pdf' as 'text' } },
      }),
      'format',
    );
  });
});

// --- highlights ------------------------------------------------------------------------------

describe('highlights', () => {
  test('create with selectors or a quote, read, list, update and delete', async () => {
    const { api, user } = await owner();
    const note = await makeClippedNote(deps, user.id, { title: 'Talk', text: TEXT });
    const other = await makeClippedNote(deps, user.id, { title: 'Other', text: 'Seeds and soil, and rain.' });
    const byId = (id: string) => api.GET('/highlights/{id}', { params: { path: { id } } });
    const start = TEXT.indexOf('a good book');
    const exact = 'a good book listens';
    const bySelectors = dataOf(
      await api.POST('/highlights', {
        body: {
          noteId: note.id,
          coreType: CoreType.highlight,
          slotId: 3,
          tags: ['craft'],
          selectors: {
            quote: {
              type: 'TextQuoteSelector',
              exact,
              prefix: TEXT.slice(start - 10, start),
              suffix: TEXT.slice(start + exact.length),
            },
            position: { type: 'TextPositionSelector', start, end: start + exact.length },
          },
        },
      }),
      201,
    );
    expect(bySelectors).toMatchObject({
      noteId: note.id,
      coreType: CoreType.highlight,
      text: exact,
      slotId: 3,
      style: 1,
      positionStart: start,
      detached: false,
      annotation: null,
      tags: ['craft'],
    });

    const byQuote = dataOf(
      await api.POST('/highlights', {
        body: { noteId: note.id, coreType: CoreType.highlight, quote: 'All books talk.', annotation: 'Yes' },
      }),
      201,
    );
    expect(byQuote).toMatchObject({ text: 'All books talk.', annotation: 'Yes', slotId: 1 });
    expect(byQuote.selectors?.position).toEqual({
      type: 'TextPositionSelector',
      start: TEXT.indexOf('All books talk.'),
      end: TEXT.indexOf('All books talk.') + 'All books talk.'.length,
    });
    // An id of the caller's own making that already names a highlight on another note.
    const reused = await api.POST('/highlights', {
      body: { id: byQuote.id, noteId: other.id, coreType: CoreType.highlight, quote: 'rain' },
    });
    expect(reused.response.status).toBe(409);
    expect(reused.error).toMatchObject({ code: 409, error: { type: 'conflict' } });
    const elsewhere = dataOf(
      await api.POST('/highlights', {
        body: { noteId: other.id, coreType: CoreType.highlight, quote: 'rain' },
      }),
      201,
    );

    expect(dataOf(await byId(byQuote.id))).toEqual(byQuote);
    const detail = dataOf(await api.GET('/notes/{id}', { params: { path: { id: note.id } } }));
    expect([detail.highlightCount, ids(detail.highlights)]).toEqual([2, [byQuote.id, bySelectors.id]]);

    const list = async (query: { noteId?: string; slotId?: number; tag?: string; q?: string }) =>
      ids(dataOf(await api.GET('/highlights', { params: { query } })).items);
    expect(await list({})).toEqual([elsewhere.id, byQuote.id, bySelectors.id]);
    expect(await list({ noteId: note.id })).toEqual([byQuote.id, bySelectors.id]);
    expect(await list({ slotId: 3 })).toEqual([bySelectors.id]);
    expect(await list({ tag: 'craft' })).toEqual([bySelectors.id]);
    expect(await list({ q: 'rain' })).toEqual([elsewhere.id]);

    const updated = dataOf(
      await api.PATCH('/highlights/{id}', {
        params: { path: { id: byQuote.id } },
        body: { slotId: 5, style: 2, annotation: 'Changed my mind', tags: ['t1', 't2'] },
      }),
    );
    expect(updated).toMatchObject({
      id: byQuote.id,
      slotId: 5,
      style: 2,
      annotation: 'Changed my mind',
      tags: ['t1', 't2'],
    });
    expect(dataOf(await byId(byQuote.id))).toMatchObject({
      slotId: 5,
      annotation: 'Changed my mind',
      tags: ['t1', 't2'],
    });
    const cleared = dataOf(
      await api.PATCH('/highlights/{id}', {
        params: { path: { id: byQuote.id } },
        body: { annotation: null },
      }),
    );
    expect([cleared.annotation, cleared.slotId]).toEqual([null, 5]);

    expect(
      dataOf(await api.DELETE('/highlights/{id}', { params: { path: { id: bySelectors.id } } })),
    ).toEqual({
      deleted: true,
    });
    expectNotFound(await byId(bySelectors.id));
    const after = dataOf(await api.GET('/notes/{id}', { params: { path: { id: note.id } } }));
    expect([after.highlightCount, ids(after.highlights)]).toEqual([1, [byQuote.id]]);

    // Another user's note as the list's filter: not found.
    const theirs = await stranger();
    expectNotFound(await theirs.api.GET('/highlights', { params: { query: { noteId: note.id } } }));

    expectRefused(await api.GET('/highlights', { params: { query: { slotId: 9 } } }), 'slotId');
    expectRefused(
      await api.POST('/highlights', { body: { noteId: note.id, coreType: CoreType.image } }),
      'imageUrl',
    );
    expectRefused(
      await api.PATCH('/highlights/{id}', { params: { path: { id: byQuote.id } }, body: { slotId: 0 } }),
      'slotId',
    );
    expect(dataOf(await byId(byQuote.id)).slotId).toBe(5);
    expect(await list({})).toEqual([elsewhere.id, byQuote.id]);
  });
});

// --- tags and folders ------------------------------------------------------------------------

describe('tags and folders', () => {
  test('tags: each with how many notes carry it (themselves or through a highlight) and how many highlights', async () => {
    const { api, user } = await owner();
    const note = await makeClippedNote(deps, user.id, { title: 'Talk', text: TEXT, tags: ['books', 'talk'] });
    await makeClippedNote(deps, user.id, { title: 'More', text: 'More text.', tags: ['books'] });
    dataOf(
      await api.POST('/highlights', {
        body: {
          noteId: note.id,
          coreType: CoreType.highlight,
          quote: 'All books talk.',
          tags: ['talk', 'quote'],
        },
      }),
      201,
    );
    expect(dataOf(await api.GET('/tags')).items).toEqual([
      { tag: 'books', notes: 2, highlights: 0 },
      { tag: 'quote', notes: 1, highlights: 1 },
      { tag: 'talk', notes: 1, highlights: 1 },
    ]);
  });

  test('folders: create (nested), list, rename and delete; not another user’s', async () => {
    const { api, user } = await owner();
    const folders = async () => dataOf(await api.GET('/folders')).items;
    expect(await folders()).toEqual([]);
    const top = dataOf(await api.POST('/folders', { body: { name: '  Work  ' } }), 201);
    expect(top).toMatchObject({ name: 'Work', parentId: null, noteCount: 0 });
    expect(Math.abs(top.createAt - clock.now().getTime() / 1000)).toBeLessThan(60);
    const child = dataOf(await api.POST('/folders', { body: { name: 'Drafts', parentId: top.id } }), 201);
    expect(child.parentId).toBe(top.id);
    expect((await folders()).map((f) => [f.name, f.parentId])).toEqual([
      ['Drafts', top.id],
      ['Work', null],
    ]);

    const renamed = dataOf(
      await api.PATCH('/folders/{id}', { params: { path: { id: child.id } }, body: { name: 'Finished' } }),
    );
    expect(renamed).toMatchObject({ id: child.id, name: 'Finished', parentId: top.id });
    expect((await folders()).map((f) => f.name)).toEqual(['Finished', 'Work']);

    const theirs = await stranger();
    expectNotFound(
      await theirs.api.PATCH('/folders/{id}', {
        params: { path: { id: top.id } },
        body: { name: 'Mine now' },
      }),
    );
    expectNotFound(await theirs.api.DELETE('/folders/{id}', { params: { path: { id: top.id } } }));
    expectNotFound(await theirs.api.POST('/folders', { body: { name: 'Inside yours', parentId: top.id } }));
    expect((await folders()).map((f) => f.name)).toEqual(['Finished', 'Work']);
    expect(dataOf(await theirs.api.GET('/folders')).items).toEqual([]);

    expectRefused(await api.POST('/folders', { body: { name: 'a/b' } }), 'name');
    expectRefused(
      await api.PATCH('/folders/{id}', { params: { path: { id: top.id } }, body: { name: '   ' } }),
      'name',
    );
    // Names are unique among a folder's children.
    const taken = await api.POST('/folders', { body: { name: 'Finished', parentId: top.id } });
    expect(taken.response.status).toBe(409);
    expect(taken.error).toMatchObject({ code: 409, error: { type: 'conflict' } });
    const other = dataOf(await api.POST('/folders', { body: { name: 'Other', parentId: top.id } }), 201);
    const clash = await api.PATCH('/folders/{id}', {
      params: { path: { id: other.id } },
      body: { name: 'Finished' },
    });
    expect(clash.response.status).toBe(409);
    expect((await folders()).map((f) => f.name)).toEqual(['Finished', 'Other', 'Work']);

    // Deleting a folder deletes its subfolders; their notes stay, outside any folder.
    const note = await makeClippedNote(deps, user.id, { title: 'Filed', text: TEXT });
    dataOf(
      await api.PATCH('/notes/{id}', { params: { path: { id: note.id } }, body: { folderId: child.id } }),
    );
    expect(dataOf(await api.DELETE('/folders/{id}', { params: { path: { id: top.id } } }))).toEqual({
      deleted: true,
    });
    expect(await folders()).toEqual([]);
    expect(dataOf(await api.GET('/notes/{id}', { params: { path: { id: note.id } } })).folderId).toBeNull();
  });
});

// --- daily notes -----------------------------------------------------------------------------

describe('daily notes', () => {
  /** 20:00 UTC on 14 March is 09:00 on 15 March in Auckland (UTC+13). */
  const EVENING_UTC = '2026-03-14T20:00:00Z';
  const AUCKLAND_TODAY = '2026-03-15';

  async function aucklandOwner() {
    const user = await owner();
    await deps.orm.em.fork().nativeUpdate(User, { id: user.user.id }, { timeZone: 'Pacific/Auckland' });
    return user;
  }

  beforeAll(() => setClock(EVENING_UTC));
  afterAll(() => setClock(TEST_NOW));

  test('get today or a date, in the account’s zone; write a day', async () => {
    const { api } = await aucklandOwner();
    const day = async (day: string) => dataOf(await api.GET('/daily/{day}', { params: { path: { day } } }));
    expect(await day('today')).toEqual({
      id: '',
      date: AUCKLAND_TODAY,
      text: '',
      version: 0,
      updateAt: null,
      entries: [],
    });

    const written = dataOf(await api.POST('/daily', { body: { text: 'A first line.' } }), 201);
    expect(written).toMatchObject({ date: AUCKLAND_TODAY, text: 'A first line.', version: 1 });
    expect(written.id).not.toBe('');
    expect(await day('today')).toMatchObject({ id: written.id, text: 'A first line.', version: 1 });
    expect(await day(AUCKLAND_TODAY)).toMatchObject({ id: written.id, text: 'A first line.' });
    // The day it is in UTC is not the account's today.
    expect((await day('2026-03-14')).text).toBe('');

    const rewritten = dataOf(await api.POST('/daily', { body: { text: 'Replaced.' } }), 201);
    expect([rewritten.id, rewritten.text, rewritten.version]).toEqual([written.id, 'Replaced.', 2]);
    const past = dataOf(await api.POST('/daily', { body: { date: '2026-03-01', text: 'Back then.' } }), 201);
    expect(past.date).toBe('2026-03-01');
    expect(await day('2026-03-01')).toMatchObject({ id: past.id, text: 'Back then.' });
    expect((await day('today')).text).toBe('Replaced.');

    expectRefused(await api.GET('/daily/{day}', { params: { path: { day: '2026-02-30' } } }), 'day');
    expectRefused(await api.POST('/daily', { body: { date: '2026-02-30', text: 'Never.' } }), 'date');
    expect((await day('today')).text).toBe('Replaced.');
  });

  test('append text, or a highlight, to today’s note', async () => {
    const { api, user } = await aucklandOwner();
    const today = async () => dataOf(await api.GET('/daily/{day}', { params: { path: { day: 'today' } } }));

    const appended = dataOf(await api.POST('/daily/today/append', { body: { text: 'An idea.' } }));
    expect(appended).toMatchObject({ date: AUCKLAND_TODAY, version: 1 });
    // Stamped with the time of day in the account's zone.
    expect(appended.text).toMatch(/^\*\*09:\d\d\*\* An idea\.$/);
    expect((await today()).text).toBe(appended.text);

    const note = await makeClippedNote(deps, user.id, { title: 'Talk', text: TEXT });
    const highlight = dataOf(
      await api.POST('/highlights', {
        body: { noteId: note.id, coreType: CoreType.highlight, quote: 'All books talk.' },
      }),
      201,
    );
    const withHighlight = dataOf(
      await api.POST('/daily/today/append', { body: { highlightId: highlight.id } }),
    );
    expect(withHighlight.text).toBe(
      `${appended.text}\n\n> All books talk.\n\n— [Talk](/?pi=${note.id}&vs=article) · [↗](/?nx=${highlight.id}&vs=article)`,
    );
    expect(withHighlight.version).toBe(2);
    expect((await today()).text).toBe(withHighlight.text);

    // Another user's highlight: not found, and neither day changes.
    const theirs = await stranger();
    expectNotFound(await theirs.api.POST('/daily/today/append', { body: { highlightId: highlight.id } }));
    expect(dataOf(await theirs.api.GET('/daily/{day}', { params: { path: { day: 'today' } } })).text).toBe(
      '',
    );
    expect((await today()).text).toBe(withHighlight.text);

    expectRefused(await api.POST('/daily/today/append', { body: { text: '   ' } }), 'text');
    expect((await today()).version).toBe(2);
  });
});

// --- the extension's operations ---------------------------------------------------------------

describe('extension', () => {
  test('settings: the defaults filled in, the minimum version', async () => {
    const { api } = await owner();
    const settings = dataOf(await api.GET('/extension/settings'));
    expect(settings).toMatchObject({ textTooltipStyle: 1, minVersion: deps.config.extensionMinVersion });
    expect(Object.keys(settings.colours)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    expect(settings.shortcuts.highlight).toBe('Alt+Shift+H');
  });

  test('a page: nothing for a page not saved; the note and its highlights once saved', async () => {
    const { api } = await owner();
    const url = `${site.origin}/extension-page`;
    expect(dataOf(await api.GET('/extension/page', { params: { query: { url } } }))).toEqual({
      note: null,
      highlights: [],
    });
    const saved = dataOf(
      await api.POST('/notes', { body: { url, html: article('A page', PARAGRAPHS) } }),
      201,
    );
    await clipSettled(deps, saved.note.id);
    const quote = PARAGRAPHS[1]?.slice(0, 30) as string;
    dataOf(
      await api.POST('/highlights', { body: { noteId: saved.note.id, coreType: CoreType.highlight, quote } }),
      201,
    );
    const page = dataOf(await api.GET('/extension/page', { params: { query: { url: `${url}#section` } } }));
    expect(page.note).toMatchObject({ id: saved.note.id, title: 'A page', highlightCount: 1 });
    expect(page.note?.readerUrl).toBe(`${server.url}/?pi=${saved.note.id}&vs=${ViewStyle.article}`);
    expect(page.highlights.map((h) => h.text)).toEqual([quote]);
    // Another user's page is theirs alone.
    const { api: theirs } = await stranger();
    expect(dataOf(await theirs.GET('/extension/page', { params: { query: { url } } })).note).toBeNull();
    expectRefused(await api.GET('/extension/page', { params: { query: { url: '' } } }), 'url');
  });

  test('save a page by its address: fetched and parsed by the worker; saving it again is the same note', async () => {
    const { api } = await owner();
    const url = `${site.origin}/article`;
    const saved = dataOf(await api.POST('/extension/notes', { body: { url } }), 201);
    expect(saved.created).toBe(true);
    await clipSettled(deps, saved.note.id);
    const read = dataOf(await api.GET('/notes/{id}', { params: { path: { id: saved.note.id } } }));
    expect([read.title, read.url, read.clipStatus]).toEqual(['A calm article', url, ClipStatus.done]);
    const again = dataOf(await api.POST('/extension/notes', { body: { url } }), 201);
    expect([again.created, again.note.id]).toEqual([false, saved.note.id]);
    expectRefused(await api.POST('/extension/notes', { body: { url: 'javascript:alert(1)' } }), 'url');
  });

  test('upload a rendered page through the policy, then its callback saves it', async () => {
    const { api } = await owner();
    const url = `${site.origin}/behind-a-login`;
    const policy = dataOf(await api.POST('/extension/uploads', { body: { url } }), 201);
    expect(policy.host).toBe(`${server.url}/upload`);
    expect(policy.callback).toBe(`${server.url}/openapi/v1/extension/uploads/complete`);
    const upload = await postUploadForm(
      policy,
      pageFile(url, article('Only the user could see this', PARAGRAPHS)),
    );
    expect(upload.status).toBe(200);
    const done = dataOf(await api.POST('/extension/uploads/complete', { body: { key: policy.key } }));
    expect(done.created).toBe(true);
    await clipSettled(deps, done.note.id);
    const read = dataOf(await api.GET('/notes/{id}', { params: { path: { id: done.note.id } } }));
    expect([read.title, read.url]).toEqual(['Only the user could see this', url]);
    expect(site.hits.get('/behind-a-login')).toBeUndefined();
    // The callback again (a retry): the same note.
    const again = dataOf(await api.POST('/extension/uploads/complete', { body: { key: policy.key } }));
    expect([again.note.id, again.created]).toEqual([done.note.id, false]);
    // Not another user's upload.
    const { api: theirs } = await stranger();
    expectNotFound(await theirs.POST('/extension/uploads/complete', { body: { key: policy.key } }));
    expectRefused(
      await api.POST('/extension/uploads/complete', { body: { key: '../../etc/passwd' } }),
      'key',
    );
    expectRefused(await api.POST('/extension/uploads', { body: { url: 'ftp://example.test/' } }), 'url');
  });
});

// --- coverage --------------------------------------------------------------------------------

/** Another user's ids for these are tried in openapi.test.ts ('another user’s note and highlight'). */
const STRANGER_TRIED_IN_OPENAPI_TEST = new Set([
  'getNote',
  'updateNote',
  'trashNote',
  'deleteNote',
  'getHighlight',
  'updateHighlight',
  'deleteHighlight',
]);

/** The operations of `OPERATIONS` that `keep` picks, by id. */
const operationIds = (keep: (op: Operation) => boolean) =>
  OPERATIONS.filter(keep).map((op) => op.operationId);
/** Of `ids`, the operations that never answered as `seen` says. */
const neverAnswered = (ids: string[], seen: RegExp) =>
  ids.filter((id) => ![...(answered.get(id) ?? [])].some((answer) => seen.test(answer)));

test('every operation was called through the generated client: answered, refused to a stranger, refused bad input', () => {
  expect(
    neverAnswered(
      operationIds(() => true),
      /^owner 2\d\d$/,
    ),
  ).toEqual([]);
  const withId = operationIds(
    (op) => op.path.includes('{id}') && !STRANGER_TRIED_IN_OPENAPI_TEST.has(op.operationId),
  );
  expect(neverAnswered(withId, /^stranger 404$/)).toEqual([]);
  expect(
    neverAnswered(
      operationIds((op) => Boolean(op.body || op.query)),
      /^owner 422$/,
    ),
  ).toEqual([]);
});

test('every status an operation answered is one the document lists for it', () => {
  const paths = openApiDocument().paths ?? {};
  const undocumented = OPERATIONS.flatMap((op) => {
    const listed = Object.keys(paths[op.path]?.[op.method]?.responses ?? {});
    return [...(answered.get(op.operationId) ?? [])]
      .map((answer) => answer.split(' ')[1] as string)
      .filter((status) => !listed.includes(status))
      .map((status) => `${op.operationId} ${status}`);
  });
  expect([...new Set(undocumented)]).toEqual([]);
});
