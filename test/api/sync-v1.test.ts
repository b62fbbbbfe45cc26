import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { clock, setClock } from '../../server/clock.ts';
import { Integration, Note } from '../../server/db/entities/index.ts';
import { DEVICE_TICKET_TTL_MS } from '../../server/domain/sync/tokens.ts';
import { Flow } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import {
  ExcludeRange,
  type IntegrationSettings,
  type SyncDownloadResponse,
  type SyncedNote,
  type SyncInitResponse,
} from '../../src/schemas/sync.ts';
import { createTestDeps, TEST_NOW, type TestDeps } from '../helpers/deps.ts';
import { highlightBody, logSettled, noteWithBody } from '../helpers/sync.ts';
import { signedInUser } from '../helpers/users.ts';

// Margin's own pull API, driven the way Margin's plugin (plugins/core/pull.ts) drives it: the
// device flow for a token, then init → download until the cursor stops or nothing more → ack.

let deps: TestDeps;
let app: Express;
beforeAll(async () => {
  // Behind a trusted proxy on loopback, so the rate-limit test can come from an address of its own.
  deps = await createTestDeps({ TRUST_PROXY: 'loopback' });
  app = createApp(deps);
});
afterAll(() => deps.close());

type Signed = Awaited<ReturnType<typeof signedInUser>>;
const OBSIDIAN = 7;

const newClientId = () => `c_${newId()}`;

function call(path: string, body: unknown, token?: string) {
  const req = request(app).post(`/api/sync/v1${path}`);
  if (token) req.set('Authorization', `Bearer ${token}`);
  return req.send(body as object);
}

/** The device flow: pending until the user confirms, then the token (once). */
async function connect(user: Signed, serviceId = OBSIDIAN) {
  const clientId = newClientId();
  await call('/token', { clientId }).expect(202);
  await user.caller.sync.confirmDevice({ serviceId, clientId });
  const { body } = await call('/token', { clientId }).expect(200);
  return { token: body.token as string, clientId };
}

interface Pulled {
  init: SyncInitResponse;
  /** Every note sent, the last version of each. */
  notes: Map<string, SyncedNote>;
  deleted: string[];
  cursor: string;
  downloads: number;
}

/** One sync as Margin's plugin runs it, acknowledged at the end. */
async function pull(client: { token: string; clientId: string }, fromStart = false): Promise<Pulled> {
  await logSettled(deps);
  const { token, clientId } = client;
  const init: SyncInitResponse = (await call('/init', { clientId, fromStart }, token).expect(200)).body;
  const notes = new Map<string, SyncedNote>();
  const deleted: string[] = [];
  let cursor = init.cursor;
  let downloads = 0;
  for (;;) {
    const res = await call('/download', { clientId, cursor, noteIds: [] }, token).expect(200);
    const batch: SyncDownloadResponse = res.body;
    downloads++;
    for (const note of batch.notes) notes.set(note.id, note);
    deleted.push(...batch.deleted);
    const moved = batch.cursor !== cursor;
    cursor = batch.cursor;
    if (!batch.hasMore || !moved) break;
  }
  await call('/ack', { clientId, cursor }, token).expect(200, { ok: true });
  return { init, notes, deleted, cursor: cursor as string, downloads };
}

const note = (user: Signed, title: string, tags: string[] = []) => noteWithBody(deps, user, title, tags);
const highlight = highlightBody;

async function settle(user: Signed, settings: Partial<IntegrationSettings>) {
  await user.caller.sync.updateSettings({ app: 'obsidian', settings });
  await user.caller.sync.runOnce({ app: 'obsidian' });
}

const noteRow = (id: string) => deps.orm.em.fork().findOneOrFail(Note, { id });

async function integrationRow(user: Signed) {
  return deps.orm.em.fork().findOneOrFail(Integration, { user: user.user.id, app: 'obsidian' });
}

describe('/api/sync/v1', () => {
  test('device flow: pending until confirmed, the token once, then expired; a ticket past its time expires', async () => {
    const user = await signedInUser(deps);
    const clientId = newClientId();
    const pending = await call('/token', { clientId }).expect(202);
    expect(pending.body.error.code).toBe('pending');
    expect(pending.body.error.message).toEqual(expect.any(String));
    await user.caller.sync.confirmDevice({ serviceId: OBSIDIAN, clientId });
    const { body } = await call('/token', { clientId }).expect(200);
    expect(body.token).toMatch(/^msync_/);
    expect((await call('/token', { clientId }).expect(410)).body.error.code).toBe('expired');
    // The token works, for the app the page named.
    const init = await call('/init', { clientId }, body.token).expect(200);
    expect(init.body).toMatchObject({ app: 'obsidian', cursor: null, totalNotes: 0 });

    const late = newClientId();
    await user.caller.sync.confirmDevice({ serviceId: OBSIDIAN, clientId: late });
    try {
      setClock(new Date(clock.now().getTime() + DEVICE_TICKET_TTL_MS + 60_000));
      expect((await call('/token', { clientId: late }).expect(410)).body.error.code).toBe('expired');
    } finally {
      setClock(TEST_NOW);
    }
  });

  test('a first sync pages past 100 notes with rendered Markdown; then only what changed comes, and deletions', async () => {
    const user = await signedInUser(deps);
    const notes: Note[] = [];
    for (let i = 0; i < 130; i++) notes.push(await note(user, `Note ${i}`));
    const marked = await highlight(user, notes[0]!.id, 'first thought');
    const client = await connect(user);

    const first = await pull(client);
    expect(first.init.totalNotes).toBe(130);
    expect(first.init.settings).toEqual({ folder: 'Margin', writeStyle: 1 });
    expect(first.downloads).toBeGreaterThan(2);
    expect([...first.notes.keys()].sort()).toEqual(notes.map((n) => n.id).sort());
    const synced = first.notes.get(notes[0]!.id)!;
    expect(synced.fileName).toMatch(new RegExp(`-${notes[0]!.id}\\.md$`));
    expect(synced.markdown).toContain('body text');
    expect(synced.markdown).toContain('first thought');
    expect(synced.record.highlights).toMatchObject([{ id: marked.id, annotation: 'first thought' }]);
    expect(synced.record.readerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);

    // Nothing changed: nothing comes (the cursor may move up past the log's end).
    const idle = await pull(client);
    expect(idle.init.cursor).toBe(first.cursor);
    expect(idle.notes.size).toBe(0);
    expect(idle.deleted).toEqual([]);

    const added = await highlight(user, notes[5]!.id);
    let next = await pull(client);
    expect([...next.notes.keys()]).toEqual([notes[5]!.id]);
    expect(next.notes.get(notes[5]!.id)!.record.highlights.map((h) => h.id)).toEqual([added.id]);

    await user.caller.highlights.update({ id: marked.id, annotation: 'second thought' });
    next = await pull(client);
    expect([...next.notes.keys()]).toEqual([notes[0]!.id]);
    expect(next.notes.get(notes[0]!.id)!.markdown).toContain('second thought');

    await user.caller.highlights.delete({ id: added.id });
    next = await pull(client);
    expect([...next.notes.keys()]).toEqual([notes[5]!.id]);
    expect(next.notes.get(notes[5]!.id)!.record.highlights).toEqual([]);

    await user.caller.notes.trash({ ids: [notes[7]!.id] });
    next = await pull(client);
    expect(next.notes.size).toBe(0);
    expect(next.deleted).toEqual([notes[7]!.id]);
    expect((await integrationRow(user)).lastCount).toBe(0);
  });

  test('noteIds are sent again whatever the cursor; one no longer exported comes back deleted', async () => {
    const user = await signedInUser(deps);
    const kept = await note(user, 'Kept');
    const gone = await note(user, 'Gone');
    const client = await connect(user);
    const { cursor } = await pull(client);
    await user.caller.notes.trash({ ids: [gone.id] });
    await call('/init', { clientId: client.clientId }, client.token).expect(200);
    const res = await call(
      '/download',
      { clientId: client.clientId, cursor, noteIds: [kept.id, gone.id] },
      client.token,
    ).expect(200);
    expect(res.body.notes.map((n: SyncedNote) => n.id)).toEqual([kept.id]);
    expect(res.body.deleted).toEqual([gone.id]);
  });

  test('exclude ranges 1 and 2 and a tag filter narrow the export; run once sends everything again', async () => {
    const user = await signedInUser(deps);
    const bare = await note(user, 'Bare', ['keep']);
    const marked = await note(user, 'Marked');
    await highlight(user, marked.id);
    await user.caller.daily.append({ text: 'A thought of the day' });
    const client = await connect(user);
    const all = await pull(client);
    expect(all.notes.size).toBe(3);
    const daily = [...all.notes.values()].find((n) => n.record.kind === 'daily')!;
    expect(daily.record.content).toContain('A thought of the day');

    await settle(user, { excludeRanges: ExcludeRange.withoutHighlights });
    let narrowed = await pull(client);
    expect(narrowed.init.cursor).toBeNull();
    expect(new Set(narrowed.notes.keys())).toEqual(new Set([marked.id, daily.id]));

    await settle(user, { excludeRanges: ExcludeRange.withoutHighlights | ExcludeRange.dailyNotes });
    narrowed = await pull(client);
    expect([...narrowed.notes.keys()]).toEqual([marked.id]);
    expect(narrowed.init.totalNotes).toBe(1);

    await settle(user, {
      excludeRanges: 0,
      filter: { tags: ['keep'], folderId: null, flows: [], since: null },
    });
    narrowed = await pull(client);
    expect([...narrowed.notes.keys()]).toEqual([bare.id]);

    // Leaving the filter is a change too: a note that stops matching comes back deleted.
    await user.caller.notes.removeTag({ ids: [bare.id], tag: 'keep' });
    expect((await pull(client)).deleted).toEqual([bare.id]);

    await settle(user, { filter: { tags: [], folderId: null, flows: [], since: null } });
    const again = await pull(client);
    expect(again.notes.size).toBe(3);
  });

  test('fromStart resets the cursor; the ack records the run', async () => {
    const user = await signedInUser(deps);
    await note(user, 'One');
    await note(user, 'Two');
    const client = await connect(user);
    const first = await pull(client);
    const row = await integrationRow(user);
    expect(row.cursor).toBe(first.cursor);
    expect(row.lastCount).toBe(2);
    expect(row.syncClient).toBeNull();
    const restart = await pull(client, true);
    expect(restart.init.cursor).toBeNull();
    expect(restart.notes.size).toBe(2);
  });

  test('run once while a client syncs: its ack does not store the old position, and its cursor starts over', async () => {
    const user = await signedInUser(deps);
    await note(user, 'Reset mid-sync');
    const client = await connect(user);
    await logSettled(deps);
    await call('/init', { clientId: client.clientId }, client.token).expect(200);
    const { body } = await call(
      '/download',
      { clientId: client.clientId, cursor: null },
      client.token,
    ).expect(200);
    await user.caller.sync.runOnce({ app: 'obsidian' });
    await call('/ack', { clientId: client.clientId, cursor: body.cursor }, client.token).expect(200);
    expect((await integrationRow(user)).cursor).toBeNull();
    const again = await call(
      '/download',
      { clientId: client.clientId, cursor: body.cursor },
      client.token,
    ).expect(200);
    expect(again.body.notes.map((n: { record: { title: string } }) => n.record.title)).toEqual([
      'Reset mid-sync',
    ]);
  });

  test('a second client gets 409 while the first holds the sync, and goes ahead after its ack', async () => {
    const user = await signedInUser(deps);
    await note(user, 'Shared');
    const first = await connect(user);
    const second = await connect(user);
    const init = await call('/init', { clientId: first.clientId }, first.token).expect(200);
    const refused = await call('/init', { clientId: second.clientId }, second.token).expect(409);
    expect(refused.body.error.code).toBe('sync_running');
    await call('/download', { clientId: second.clientId, cursor: null }, second.token).expect(409);
    const { body } = await call(
      '/download',
      { clientId: first.clientId, cursor: init.body.cursor },
      first.token,
    );
    await call('/ack', { clientId: second.clientId, cursor: body.cursor }, second.token).expect(409);
    await call('/ack', { clientId: first.clientId, cursor: body.cursor }, first.token).expect(200);
    await call('/init', { clientId: second.clientId }, second.token).expect(200);
  });

  test('a disabled integration is 403 sync_disabled until enabled again', async () => {
    const user = await signedInUser(deps);
    const client = await connect(user);
    await user.caller.sync.setEnabled({ app: 'obsidian', enabled: false });
    const refused = await call('/init', { clientId: client.clientId }, client.token).expect(403);
    expect(refused.body.error.code).toBe('sync_disabled');
    await call('/download', { clientId: client.clientId, cursor: null }, client.token).expect(403);
    await user.caller.sync.setEnabled({ app: 'obsidian', enabled: true });
    await call('/init', { clientId: client.clientId }, client.token).expect(200);
  });

  test('two clients starting at once: exactly one wins', async () => {
    const user = await signedInUser(deps);
    const a = await connect(user);
    const b = await connect(user);
    const answers = await Promise.all([
      call('/init', { clientId: a.clientId }, a.token),
      call('/init', { clientId: b.clientId }, b.token),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  test('an unknown, malformed or revoked token is 401 invalid_token, in the caller’s language', async () => {
    const user = await signedInUser(deps);
    const client = await connect(user);
    const body = { clientId: client.clientId };
    for (const token of ['msync_nope', 'x'.repeat(300), '']) {
      const res = await call('/init', body, token || undefined).expect(401);
      expect(res.body.error.code).toBe('invalid_token');
    }
    const english = (await call('/init', body, 'msync_nope')).body.error.message;
    const french = (await call('/init', body, 'msync_nope').set('Accept-Language', 'fr-FR,fr;q=0.9')).body
      .error.message;
    expect(english).not.toMatch(/^errors\./);
    expect(french).not.toBe(english);

    // `Token <t>` (the seed plugins' spelling) is accepted as well.
    await request(app)
      .post('/api/sync/v1/init')
      .set('Authorization', `Token ${client.token}`)
      .send(body)
      .expect(200);
    const [view] = await user.caller.sync.tokens();
    await user.caller.sync.revokeToken({ id: view!.id });
    expect((await call('/init', body, client.token).expect(401)).body.error.code).toBe('invalid_token');
  });

  test('a cursor of another user’s integration is 400 cursor_invalid, and nothing changes', async () => {
    const owner = await signedInUser(deps);
    await note(owner, 'Private');
    const ownerClient = await connect(owner);
    const ownerCursor = (await pull(ownerClient)).cursor;
    const other = await signedInUser(deps);
    await note(other, 'Mine');
    const client = await connect(other);
    const { cursor } = await pull(client);
    await call('/init', { clientId: client.clientId }, client.token).expect(200);
    for (const path of ['/download', '/ack']) {
      const res = await call(path, { clientId: client.clientId, cursor: ownerCursor }, client.token).expect(
        400,
      );
      expect(res.body.error.code).toBe('cursor_invalid');
    }
    expect((await integrationRow(other)).cursor).toBe(cursor);
    expect((await integrationRow(owner)).cursor).toBe(ownerCursor);
  });

  test('garbage is 400 invalid_input: NUL bytes, huge strings, wrong types, deep or broken JSON', async () => {
    const user = await signedInUser(deps);
    const mine = await note(user, 'Mine');
    const client = await connect(user);
    const { clientId, token } = client;
    const bad: [string, unknown][] = [
      ['/token', { clientId: 'abc\u0000defgh' }],
      ['/token', { clientId: 12345678 }],
      ['/init', { clientId: 'short' }],
      ['/init', { clientId, fromStart: 'yes' }],
      ['/download', { clientId, cursor: null, noteIds: 'all' }],
      ['/download', { clientId, cursor: null, noteIds: [`${mine.id}\u0000`] }],
      ['/download', { clientId, cursor: null, noteIds: Array(7).fill(mine.id) }],
      ['/ack', { clientId }],
      ['/archive', { noteId: '\u0000' }],
      ['/delete', { noteId: ['a'] }],
      ['/archive', [1, 2, 3]],
    ];
    for (const [path, body] of bad) {
      const res = await call(path, body, token);
      expect([path, res.status, res.body.error?.code]).toEqual([path, 400, 'invalid_input']);
    }
    // A cursor that is not one the server made is refused as a cursor, whatever is wrong with it.
    for (const cursor of ['abc.def', 'x'.repeat(5000), 'abc\u0000']) {
      const res = await call('/download', { clientId, cursor }, token).expect(400);
      expect(res.body.error.code).toBe('cursor_invalid');
    }
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    for (const raw of ['{"clientId":', deep]) {
      const res = await request(app)
        .post('/api/sync/v1/init')
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'application/json')
        .send(raw)
        .expect(400);
      expect(res.body.error.code).toBe('invalid_input');
    }
    const huge = await call('/init', { clientId, padding: 'x'.repeat(100_000) }, token).expect(413);
    expect(huge.body.error.code).toBe('payload_too_large');
    // Nothing leaked, and the note is untouched.
    expect(JSON.stringify(huge.body)).not.toMatch(/stack|at \w+ \(/);
    expect((await user.caller.notes.get({ id: mine.id })).flow).toBe(Flow.inbox);
  });

  test('archive and delete act on the token’s user’s notes only; another user’s note is 404 and unchanged', async () => {
    const user = await signedInUser(deps);
    const client = await connect(user);
    const archived = await note(user, 'Archive me');
    const trashed = await note(user, 'Trash me');
    const other = await signedInUser(deps);
    const theirs = await note(other, 'Not yours');

    await call('/archive', { noteId: archived.id }, client.token).expect(200, { ok: true });
    expect((await user.caller.notes.get({ id: archived.id })).flow).toBe(Flow.archive);
    await call('/delete', { noteId: trashed.id }, client.token).expect(200, { ok: true });
    expect((await noteRow(trashed.id)).trashedAt).not.toBeNull();

    for (const path of ['/archive', '/delete']) {
      const res = await call(path, { noteId: theirs.id }, client.token).expect(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect(await noteRow(theirs.id)).toMatchObject({ flow: Flow.inbox, trashedAt: null });
  });

  test('the token is rate-limited per address', async () => {
    const clientId = newClientId();
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) {
      statuses.push((await call('/token', { clientId }).set('X-Forwarded-For', '198.51.100.9')).status);
    }
    expect(statuses.filter((s) => s === 202).length).toBeGreaterThan(0);
    expect(statuses.at(-1)).toBe(429);
  });

  test('plugins calling from their own origin get CORS answers', async () => {
    const res = await request(app)
      .options('/api/sync/v1/download')
      .set('Origin', 'app://obsidian.md')
      .set('Access-Control-Request-Headers', 'authorization,content-type')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toBe('authorization,content-type');
  });
});
