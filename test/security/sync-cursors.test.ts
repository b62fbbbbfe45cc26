import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { Integration } from '../../server/db/entities/index.ts';
import { createSyncToken } from '../../server/domain/sync/tokens.ts';
import { HighlightSort, SortOrder } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { apiUser } from '../helpers/openapi.ts';
import { highlightBody, logSettled, noteWithBody } from '../helpers/sync.ts';
import { callProcedure, fingerprint } from './router-inventory.ts';

// Forged cursors on every front that takes one: the sync fronts (Margin's /api/sync/v1 and the
// seed's /apix paths), the tRPC lists and the Open API lists. Each is refused as an invalid
// cursor (400; the seed's envelope code 40001; the Open API's 422), never a 5xx, never handed
// back, and nothing in the database changes.

let deps: TestDeps;
let app: Express;
let user: Awaited<ReturnType<typeof apiUser>>;
let syncToken: string;
let integrationId: number;
let noteId: string;
const clientId = `c_${newId()}`;

const b64 = (text: string) => Buffer.from(text).toString('base64url');
/** A cursor of the user's integration (generation 0) around `body`. */
const own = (body: string) => `${integrationId}.0.${b64(body)}`;

/** Every way a sync cursor can be forged, from a cursor's shape: `<integration>.<generation>.<position>`. */
function forgedSyncCursors(): [string, string][] {
  const id = 'abcdefgh12345678';
  return [
    ['xid past xid8', own('c|99999999999999999999|1')],
    ['xid at the xid8 maximum, ahead of every snapshot', own('c|18446744073709551615|1')],
    ['xid one past the snapshot', own('c|9000000000000000000|-1')],
    ['seq past bigint', own('c|1|9223372036854775808')],
    ['seq of 20 digits', own('c|1|99999999999999999999')],
    ['negative xid', own('c|-1|1')],
    ['seq below -1', own('c|1|-2')],
    ['leading zeros', own('c|0001|1')],
    ['hex digits', own('c|0x10|1')],
    ['an exponent', own('c|1e5|1')],
    ['a space', own('c| 1|1')],
    ['other digits', own('c|١٢٣|1')],
    ['non-digits', own('c|abc|def')],
    ['a NUL inside the position', own('c|1\u0000|1')],
    ['full walk with a huge watermark', own(`f|${id}|99999999999999999999`)],
    ['full walk ahead of every snapshot', own(`f|${id}|18446744073709551615`)],
    ['full walk after a malformed id', own('f|abc|1')],
    ['full walk after a path', own('f|../../etc|1')],
    ['an unknown mode', own('x|1|1')],
    ['too many fields', own('c|1|1|1')],
    ['too few fields', own('c|1')],
    ['an empty position', `${integrationId}.0.`],
    ['a later generation', `${integrationId}.1.${b64('c|1|1')}`],
    ['a huge generation', `${integrationId}.99999999999999999999.${b64('c|1|1')}`],
    ['a negative generation', `${integrationId}.-1.${b64('c|1|1')}`],
    ['a generation with leading zeros', `${integrationId}.00.${b64('c|1|1')}`],
    ['another integration', `${integrationId + 1}.0.${b64('c|1|1')}`],
    ['integration zero', `0.0.${b64('c|1|1')}`],
    ['a huge integration', `99999999999999999999.0.${b64('c|1|1')}`],
    ['bad base64', `${integrationId}.0.@@@`],
    ['padded base64', `${integrationId}.0.${b64('c|1|1')}=`],
    [
      'base64 of bytes that are not UTF-8',
      `${integrationId}.0.${Buffer.from([0xff, 0xfe]).toString('base64url')}`,
    ],
    ['a fourth part', `${integrationId}.0.${b64('c|1|1')}.x`],
    ['NUL', `${integrationId}.0.\u0000`],
    ['a lone surrogate', `${integrationId}.0.\uD800`],
    ['over-long', `${integrationId}.0.${'A'.repeat(600)}`],
    ['not a cursor at all', 'not a cursor'],
  ];
}

/** Keyset cursors the lists could be sent, forged from the shapes they write. */
function forgedListCursors(): [string, string][] {
  const id = 'abcdefgh12345678';
  const iso = '2026-01-01T00:00:00.000Z';
  return [
    ['a count past integer', b64(`[99999999999999999999,"${id}"]`)],
    ['a negative count', b64(JSON.stringify([-1, id]))],
    ['a fractional count', b64(JSON.stringify([1.5, id]))],
    ['a year past 9999', b64(JSON.stringify(['+275760-09-13T00:00:00.000Z', id]))],
    ['a year before 1970', b64(`1969-12-31T23:59:59.999Z|${id}`)],
    ['an id too long', b64(`${iso}|${'a'.repeat(65)}`)],
    ['an id with NUL', b64(`${iso}|abcdefgh\u0000`)],
    ['an article position past integer', b64(JSON.stringify([iso, id, 1e20, iso, id]))],
    ['an article position below zero', b64(JSON.stringify([iso, id, -5, iso, id]))],
    ['bad base64', '@@@'],
    ['NUL', 'a\u0000b'],
    ['over-long', 'A'.repeat(400)],
    ...forgedSyncCursors().slice(0, 4),
  ];
}

beforeAll(async () => {
  deps = await createTestDeps();
  app = createApp(deps);
  user = await apiUser(deps);
  const note = await noteWithBody(deps, user, 'Cursor fixture');
  noteId = note.id;
  await highlightBody(user, noteId);
  ({ token: syncToken } = await createSyncToken(deps.orm.em.fork(), user.user, {
    app: 'obsidian',
    clientId,
  }));
  // A run that ends with a real cursor, so every later call finds the lease and position in place.
  await logSettled(deps);
  await sync('/init', { clientId }).expect(200);
  let cursor: string | null = null;
  for (let i = 0; i < 5; i++) {
    const { body }: { body: { cursor: string } } = await sync('/download', { clientId, cursor }).expect(200);
    if (body.cursor === cursor) break;
    cursor = body.cursor;
  }
  await sync('/ack', { clientId, cursor }).expect(200);
  await sync('/init', { clientId }).expect(200);
  integrationId = (await integrationRow()).id;
});
afterAll(() => deps.close());

function sync(path: string, body: object) {
  return request(app).post(`/api/sync/v1${path}`).set('Authorization', `Bearer ${syncToken}`).send(body);
}

function seed(path: string, body: object) {
  return request(app)
    .post(`/apix/openapi/wucai/sync/${path}?appid=20&ep=obsidianwucai&version=24.1.14`)
    .set('AUTHORIZATION', `Token ${syncToken}`)
    .set('Obsidian-Client', clientId)
    .send({ serviceId: 7, v: 240114, ...body });
}

const integrationRow = () =>
  deps.orm.em.fork().findOneOrFail(Integration, { user: user.user.id, app: 'obsidian' });

describe('forged sync cursors', () => {
  test('the table of forged cursors is what it says', () => {
    const cursors = forgedSyncCursors();
    expect(new Set(cursors.map(([, c]) => c)).size).toBe(cursors.length);
    expect(cursors.length).toBeGreaterThanOrEqual(35);
  });

  test('/api/sync/v1 download and ack: 400 cursor_invalid for each, nothing changes', async () => {
    const before = await fingerprint(deps);
    const { cursor } = await integrationRow();
    for (const [what, forged] of forgedSyncCursors()) {
      for (const path of ['/download', '/ack']) {
        const res = await sync(path, {
          clientId,
          cursor: forged,
          noteIds: path === '/download' ? [noteId] : undefined,
        });
        expect(res.status, `${path} ${what}: ${res.text}`).toBe(400);
        expect(res.body.error.code, `${path} ${what}`).toBe('cursor_invalid');
        expect(res.body.error.message, `${path} ${what}`).toBe(
          'This sync position is not valid for this connection. Sync again from the start.',
        );
        expect(res.text, `${path} ${what}`).not.toContain(forged.slice(-12));
      }
    }
    expect((await integrationRow()).cursor).toBe(cursor);
    expect(await fingerprint(deps)).toEqual(before);
  });

  test('the seed paths: envelope code 40001 for each, whether notes are asked for again or not; nothing changes', async () => {
    const before = await fingerprint(deps);
    for (const [what, forged] of forgedSyncCursors()) {
      const answers = [
        await seed('download', { lastCursor2: forged, noteIdXs: [], checkUpdate: true }),
        // Notes asked for again: the cursor was sent back as it came.
        await seed('download', { lastCursor2: forged, noteIdXs: [noteId] }),
        await seed('ack', { lastCursor2: forged }),
      ];
      for (const res of answers) {
        expect(res.status, `${what}: ${res.text}`).toBe(200);
        expect(res.body, what).toMatchObject({ code: 40001, data: null });
        expect(res.body.message, what).toEqual(expect.stringContaining('sync position'));
      }
    }
    expect(await fingerprint(deps)).toEqual(before);
  });

  test('the cursors the server makes still work on both fronts', async () => {
    const { cursor } = await integrationRow();
    expect(cursor).toMatch(/^\d+\.0\./);
    const v1 = await sync('/download', { clientId, cursor, noteIds: [noteId] }).expect(200);
    expect(v1.body.notes.map((n: { id: string }) => n.id)).toContain(noteId);
    const again = await seed('download', { lastCursor2: cursor, noteIdXs: [noteId] }).expect(200);
    expect(again.body).toMatchObject({ code: 1, data: { lastCursor2: cursor } });
    await sync('/ack', { clientId, cursor: v1.body.cursor }).expect(200);
  });
});

describe('forged list cursors', () => {
  const query = (path: string, input: unknown) =>
    callProcedure(app, { path, type: 'query' }, input, user.token);
  const lists: [string, Record<string, unknown>][] = [
    ['notes.list', {}],
    ['notes.list', { sort: SortOrder.mostHighlights }],
    ['notes.list', { sort: SortOrder.recentlyUpdated }],
    ['highlights.list', {}],
    ['highlights.list', { sort: HighlightSort.positionInArticle }],
    ['membership.orders', { limit: 10 }],
  ];

  test.each(lists)('tRPC %s %o: 400 for each, never 5xx', async (path, extra) => {
    for (const [what, cursor] of forgedListCursors()) {
      const res = await query(path, { ...extra, cursor });
      expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBe(400);
      expect(res.error?.appCode, what).toBe('BAD_REQUEST');
    }
  });

  test('tRPC daily.list and webhooks.deliveries: forged cursors are 400', async () => {
    for (const cursor of ['99999-01-01', '2026-13-01', '-001-01-01', '2026-01-01\u0000']) {
      expect((await query('daily.list', { cursor })).status, cursor).toBe(400);
    }
    const id = 'endpointFixture01';
    for (const cursor of ['9223372036854775808', '99999999999999999999', '-1', '1e5', 'abc']) {
      expect((await query('webhooks.deliveries', { id, cursor })).status, cursor).toBe(400);
    }
  });

  test.each(['/notes', '/highlights'])('Open API %s: 422 invalid_input for each, never 5xx', async (path) => {
    for (const [what, cursor] of forgedListCursors()) {
      const res = await request(app)
        .get(`/openapi/v1${path}`)
        .query({ cursor })
        .set('Authorization', `Bearer ${user.apiToken}`);
      expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBe(422);
      expect(res.body.error.type, what).toBe('invalid_input');
    }
  });
});
