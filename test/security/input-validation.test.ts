import type { Express } from 'express';
import superjson from 'superjson';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { Folder, Note } from '../../server/db/entities/index.ts';
import { clipHtml } from '../../server/domain/notes/clip.service.ts';
import { BODY_LIMIT_DEFAULT, bodyLimitFor } from '../../server/trpc/trpc-limits.ts';
import { jsonDepthExceeds } from '../../server/web/json-body.ts';
import { CoreType, SortOrder } from '../../src/enums.ts';
import { JSON_MAX_DEPTH, TRPC_MAX_BATCH_SIZE } from '../../src/http-limits.ts';
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { signedInUser } from '../helpers/users.ts';
import { BAD_CURSORS, BAD_DATES, nested } from './bad-inputs.ts';
import { bodyOf, callProcedure, fingerprint, type ProcedureType } from './router-inventory.ts';

// Findings 3-5 of the hardening issue, over HTTP as a browser or a script would call: text that
// PostgreSQL cannot store, batches, bodies and JSON too large or too deep, malformed cursors and
// dates. Each is a 4xx with a message key, and nothing in the database changes.

let deps: TestDeps;
let app: Express;
let token: string;
let user: Awaited<ReturnType<typeof signedInUser>>;
const fx = { noteId: '', highlightId: '', folderId: '', tag: 'fixture-tag' };

const NUL = 'a\u0000b';
const LONE = 'a\uD800b';
const BAD_TEXTS = [
  ['NUL', NUL],
  ['lone surrogate', LONE],
] as const;

const serialize = (input: unknown) => JSON.stringify(superjson.serialize(input));

/** A call with the fixture user's session; `raw` is sent as the body (or `?input=`) as it is. */
const call = (type: ProcedureType) => (path: string, input?: unknown, raw?: string) =>
  callProcedure(app, { path, type }, input, token, raw === undefined ? undefined : { body: raw });
const mutate = call('mutation');
const query = call('query');

/** JSON nested `depth` levels, written as text (serialising it would itself overflow the stack). */
function deepJson(depth: number): string {
  return `${'{"a":['.repeat(depth / 2)}"deep"${']}'.repeat(depth / 2)}`;
}

beforeAll(async () => {
  deps = await createTestDeps();
  app = createApp(deps);
  user = await signedInUser(deps);
  token = user.token;
  const saved = await user.caller.notes.clipHtml({
    url: 'https://example.com/fixture',
    html: '<html><head><title>Fixture</title></head><body><p>Fixture note.</p></body></html>',
  });
  fx.noteId = saved.note.id;
  await user.caller.notes.addTag({ ids: [fx.noteId], tag: fx.tag });
  fx.folderId = (await user.caller.folders.create({ name: 'Fixture folder' })).id;
  fx.highlightId = (
    await user.caller.highlights.create({
      id: newId(),
      noteId: fx.noteId,
      coreType: CoreType.textNote,
      text: 'A fixture note',
      annotation: 'A fixture annotation',
      tags: [fx.tag],
    })
  ).id;
});
afterAll(() => deps.close());

describe('text PostgreSQL cannot store is refused at the boundary', () => {
  const mutations: [string, string, (bad: string) => unknown][] = [
    ['nickname', 'account.updateProfile', (bad) => ({ nickname: bad })],
    ['tag on notes', 'notes.addTag', (bad) => ({ ids: [fx.noteId], tag: bad })],
    ['tag renamed', 'notes.renameTag', (bad) => ({ from: fx.tag, to: bad })],
    ['tag on a highlight', 'highlights.update', (bad) => ({ id: fx.highlightId, tags: [bad] })],
    ['folder name (new)', 'folders.create', (bad) => ({ name: bad })],
    ['folder name (rename)', 'folders.rename', (bad) => ({ id: fx.folderId, name: bad })],
    ['annotation', 'highlights.update', (bad) => ({ id: fx.highlightId, annotation: bad })],
    ['highlight text', 'highlights.update', (bad) => ({ id: fx.highlightId, text: bad })],
    [
      'new text note',
      'highlights.create',
      (bad) => ({ id: newId(), noteId: fx.noteId, coreType: CoreType.textNote, text: bad }),
    ],
    ['URL to clip', 'notes.clip', (bad) => ({ url: `https://example.com/${bad}` })],
    ['clipHtml URL', 'notes.clipHtml', (bad) => ({ url: `https://example.com/${bad}`, html: '<p>x</p>' })],
    ['clipHtml HTML', 'notes.clipHtml', (bad) => ({ url: 'https://example.com/new', html: `<p>${bad}</p>` })],
    [
      'clipHtml HTML of a saved note',
      'notes.clipHtml',
      (bad) => ({ url: 'https://example.com/fixture', html: `<p>${bad}</p>` }),
    ],
    ['daily note', 'daily.save', (bad) => ({ date: '2026-03-01', text: bad, baseText: '', baseVersion: 0 })],
    ['daily append', 'daily.append', (bad) => ({ text: bad })],
  ];

  for (const [kind, bad] of BAD_TEXTS) {
    test.each(mutations)(
      `${kind} in %s (%s): 400 errors.invalidCharacters, no row changed`,
      async (_what, path, input) => {
        const before = await fingerprint(deps);
        const res = await mutate(path, input(bad));
        expect(res.status).toBe(400);
        expect(res.error).toMatchObject({ appCode: 'BAD_REQUEST', messageKey: 'errors.invalidCharacters' });
        expect(await fingerprint(deps)).toEqual(before);
      },
    );
  }

  const searches: [string, (bad: string) => unknown][] = [
    ['notes.list', (bad) => ({ q: bad })],
    ['notes.list', (bad) => ({ tag: bad })],
    ['highlights.list', (bad) => ({ q: bad })],
    ['highlights.list', (bad) => ({ tag: bad })],
    ['daily.list', (bad) => ({ q: bad })],
  ];
  for (const [kind, bad] of BAD_TEXTS) {
    test.each(searches)(`${kind} in a search of %s: 400 errors.invalidCharacters`, async (path, input) => {
      const res = await query(path, input(bad));
      expect(res.status).toBe(400);
      expect(res.error).toMatchObject({ appCode: 'BAD_REQUEST', messageKey: 'errors.invalidCharacters' });
    });
  }

  test('clipHtml with NUL leaves no note behind', async () => {
    const url = 'https://example.com/never-saved';
    const res = await mutate('notes.clipHtml', { url, html: `<p>${NUL}</p>` });
    expect(res.status).toBe(400);
    expect(await deps.orm.em.fork().count(Note, { user: user.user.id, url })).toBe(0);
  });

  test('a save whose HTML write fails is rolled back whole: no note without its HTML', async () => {
    // Past the schema, straight at the service: PostgreSQL itself refuses the NUL.
    const em = deps.orm.em.fork();
    const url = 'https://example.com/half-saved';
    await expect(clipHtml({ ...deps, em }, user.user, { url, html: `<p>${NUL}</p>` })).rejects.toThrow();
    expect(await deps.orm.em.fork().count(Note, { user: user.user.id, url })).toBe(0);
  });

  test('an encoded %00 or a malformed escape in a URL is saved, with a title that can be stored', async () => {
    for (const url of ['https://example.com/a%00b', 'https://example.com/bad%E0%A4%A']) {
      const res = await mutate('notes.clip', { url });
      expect(res.status, url).toBe(200);
      const title = (res.data as { note: { title: string } }).note.title;
      expect(title).not.toContain('\u0000');
    }
  });
});

describe('batches', () => {
  const batch = (n: number) =>
    request(app)
      .get(`/trpc/${Array.from({ length: n }, () => 'system.info').join(',')}?batch=1&input={}`)
      .set('cookie', `logininfo=${token}`);

  test(`${TRPC_MAX_BATCH_SIZE} calls in one batch are answered`, async () => {
    const res = await batch(TRPC_MAX_BATCH_SIZE);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(TRPC_MAX_BATCH_SIZE);
  });

  test(`${TRPC_MAX_BATCH_SIZE + 1} calls are refused with a 400 and errors.tooManyCalls`, async () => {
    const res = await batch(TRPC_MAX_BATCH_SIZE + 1);
    expect(res.status).toBe(400);
    const body = bodyOf(res);
    const errors = (Array.isArray(body) ? body : [body]) as {
      error: { json: { data: unknown } };
    }[];
    for (const item of errors) {
      expect(item.error.json.data).toMatchObject({
        appCode: 'BAD_REQUEST',
        messageKey: 'errors.tooManyCalls',
      });
    }
  });

  test('1,000 calls are refused the same way', async () => {
    expect((await batch(1000)).status).toBe(400);
  });
});

describe('bodies and JSON depth', () => {
  test('a 7 MB body is refused with 413 and errors.payloadTooLarge, in the tRPC envelope', async () => {
    const html = `<p>${'a'.repeat(7 * 1024 * 1024)}</p>`;
    const res = await mutate('notes.clipHtml', { url: 'https://example.com/huge', html });
    expect(res.status).toBe(413);
    expect(res.error).toMatchObject({ appCode: 'PAYLOAD_TOO_LARGE', messageKey: 'errors.payloadTooLarge' });
  });

  test('clipped HTML of a few MB is still taken', async () => {
    const html = `<html><body><p>${'Long note. '.repeat(300_000)}</p></body></html>`;
    const res = await mutate('notes.clipHtml', { url: 'https://example.com/big', html });
    expect(res.status).toBe(200);
  });

  test('any other procedure takes a much smaller body', async () => {
    const res = await mutate('folders.create', { name: 'x', pad: 'a'.repeat(BODY_LIMIT_DEFAULT) });
    expect(res.status).toBe(413);
    expect(res.error).toMatchObject({ appCode: 'PAYLOAD_TOO_LARGE' });
  });

  test('a full daily note in CJK fits its own cap', async () => {
    const text = '日'.repeat(200_000);
    const res = await mutate('daily.save', { date: '2026-03-02', text, baseText: '', baseVersion: 0 });
    expect(res.status).toBe(200);
    expect(bodyLimitFor('/daily.save')).toBeGreaterThan(
      Buffer.byteLength(serialize({ text, baseText: text })),
    );
  });

  test('a batch brings each call its share, never more than the clipping cap', () => {
    expect(bodyLimitFor('/notes.list,highlights.counts')).toBe(2 * BODY_LIMIT_DEFAULT);
    expect(bodyLimitFor(`/${Array(1000).fill('notes.clipHtml').join(',')}`)).toBe(6 * 1024 * 1024);
  });

  test('deep JSON in a POST body: 400, not 500', async () => {
    for (const depth of [JSON_MAX_DEPTH + 2, 200, 30_000]) {
      const raw = `{"json":{"name":"deep","extra":${deepJson(depth)}}}`;
      const res = await mutate('folders.create', undefined, raw);
      expect(res.status, `depth ${depth}`).toBe(400);
      expect(res.error).toMatchObject({ appCode: 'BAD_REQUEST', messageKey: 'errors.invalidInput' });
    }
    expect(await deps.orm.em.fork().count(Folder, { name: 'deep' })).toBe(0);
  });

  test('deep JSON in a GET input: 400, not 500', async () => {
    for (const depth of [JSON_MAX_DEPTH + 2, 600]) {
      const res = await query('notes.list', undefined, `{"json":{"q":"x","extra":${deepJson(depth)}}}`);
      expect(res.status, `depth ${depth}`).toBe(400);
      expect(res.error).toMatchObject({ appCode: 'BAD_REQUEST' });
    }
  });

  test('ordinary nesting passes', async () => {
    const res = await query('notes.list', { q: 'x', extra: nested(20) });
    expect(res.status).toBe(200);
  });

  test('the depth check reads text without parsing: brackets in strings do not count', () => {
    expect(jsonDepthExceeds(JSON.stringify({ s: '[[[[[[[[[['.repeat(100) }), 3)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'a\\"[[[[' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify(nested(4)), 4)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify(nested(5)), 4)).toBe(true);
    expect(jsonDepthExceeds(Buffer.from(JSON.stringify(nested(5))), 4)).toBe(true);
    expect(jsonDepthExceeds('['.repeat(1_000_000))).toBe(true);
  });

  test('a body that is not JSON, or no body: 400 in the tRPC envelope', async () => {
    for (const raw of ['{"json":', 'not json', '"a string"', '']) {
      const res = await mutate('folders.create', undefined, raw);
      expect(res.status, raw).toBe(400);
      expect(res.error, raw).toMatchObject({ appCode: 'BAD_REQUEST', messageKey: 'errors.invalidInput' });
      // An empty body is no input at all: the procedure's schema is what refuses it.
      if (raw === '') {
        expect(res.error).toMatchObject({ fieldErrors: [{ path: '', messageKey: 'errors.invalidInput' }] });
      }
    }
  });

  test('a GET input that is not JSON: 400, also where the procedure takes no input', async () => {
    for (const path of ['notes.list', 'notes.counts', 'system.info']) {
      const res = await query(path, undefined, '{"json":');
      expect(res.status, path).toBe(400);
      expect(res.error, path).toMatchObject({ appCode: 'BAD_REQUEST', messageKey: 'errors.invalidInput' });
    }
  });
});

describe('malformed cursors', () => {
  const lists: [string, Record<string, unknown>][] = [
    ['highlights.list', {}],
    ['notes.list', {}],
    ['notes.list', { sort: SortOrder.mostHighlights }],
    ['notes.list', { sort: SortOrder.oldestFirst }],
    ['notes.list', { sort: SortOrder.recentlyUpdated }],
  ];

  test.each(lists)('%s %o: every malformed cursor is a 400 with a message key', async (path, extra) => {
    for (const cursor of BAD_CURSORS) {
      const res = await query(path, { ...extra, cursor });
      expect(res.status, cursor).toBe(400);
      expect(res.error?.appCode, cursor).toBe('BAD_REQUEST');
      expect(res.error?.messageKey, cursor).toMatch(
        /^errors\.(invalidCursor|invalidCharacters|invalidInput|tooLong)$/,
      );
    }
  });

  test('a cursor of one sort is refused by another where it cannot be read', async () => {
    const note = await query('notes.list', { limit: 1, nav: 'all', sort: SortOrder.newestFirst });
    const notes = (await query('notes.list', { limit: 100 })).data as { items: unknown[] };
    if (notes.items.length < 2) await user.caller.notes.clip({ url: 'https://example.com/second' });
    const first = await query('notes.list', { limit: 1, sort: SortOrder.newestFirst });
    const cursor = (first.data as { nextCursor: string }).nextCursor;
    expect(note.status).toBe(200);
    expect(cursor).toBeTruthy();
    const wrong = await query('notes.list', { limit: 1, sort: SortOrder.mostHighlights, cursor });
    expect(wrong.status).toBe(400);
    expect(wrong.error).toMatchObject({ messageKey: 'errors.invalidCursor' });
  });

  test('cursors the server made still page through every list and sort', async () => {
    for (let i = 0; i < 3; i++) await user.caller.notes.clip({ url: `https://example.com/paged-${i}` });
    const walk = async (path: string, extra: Record<string, unknown>) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 20; i++) {
        const res = await query(path, { ...extra, limit: 1, ...(cursor ? { cursor } : {}) });
        expect(res.status, `${path} ${JSON.stringify(extra)}`).toBe(200);
        const data = res.data as { items: { id: string }[]; nextCursor: string | null };
        seen.push(...data.items.map((item) => item.id));
        cursor = data.nextCursor;
        if (!cursor) break;
      }
      return seen;
    };
    expect((await walk('notes.list', {})).length).toBeGreaterThanOrEqual(4);
    for (const sort of Object.values(SortOrder)) {
      const ids = await walk('notes.list', { sort });
      expect(new Set(ids).size, `sort ${sort}`).toBe(ids.length);
      expect(ids.length, `sort ${sort}`).toBeGreaterThanOrEqual(4);
    }
  });

  test('daily.list: a cursor that is not a calendar day is a 400', async () => {
    for (const cursor of ['2026-99-99', '2026-02-30', 'garbage', '0000-01-01']) {
      const res = await query('daily.list', { cursor });
      expect(res.status, cursor).toBe(400);
      expect(res.error?.messageKey).toBe('errors.invalidDate');
    }
  });
});

describe('daily dates', () => {
  test.each(BAD_DATES)('%s: 400 errors.invalidDate for reading, saving and exporting', async (date) => {
    const before = await fingerprint(deps);
    for (const res of [
      await query('daily.get', { date }),
      await query('daily.export', { date, format: 'text' }),
      await mutate('daily.save', { date, text: 'x', baseText: '', baseVersion: 0 }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.error).toMatchObject({ appCode: 'BAD_REQUEST', messageKey: 'errors.invalidDate' });
    }
    expect(await fingerprint(deps)).toEqual(before);
  });

  test('a real leap day is a day', async () => {
    expect((await query('daily.get', { date: '2024-02-29' })).status).toBe(200);
  });
});

describe('errors tRPC raises itself keep their 4xx and a code of their own', () => {
  test('GET on a mutation: 405, METHOD_NOT_ALLOWED, not INTERNAL', async () => {
    const res = await query('folders.create', { name: 'via GET' });
    expect(res.status).toBe(405);
    expect(res.error).toMatchObject({ appCode: 'METHOD_NOT_ALLOWED', messageKey: 'errors.methodNotAllowed' });
    expect(res.error?.appCode).not.toBe('INTERNAL');
  });

  test('POST to a query: 405 as well', async () => {
    const res = await mutate('notes.counts', undefined, '{}');
    expect(res.status).toBe(405);
    expect(res.error).toMatchObject({ appCode: 'METHOD_NOT_ALLOWED' });
  });

  test('an unknown procedure: 404 NOT_FOUND', async () => {
    const res = await query('nope.nothing');
    expect(res.status).toBe(404);
    expect(res.error).toMatchObject({ appCode: 'NOT_FOUND', messageKey: 'errors.notFound' });
  });
});
