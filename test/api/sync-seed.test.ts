import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkers } from '../../jobs/workers.ts';
import { createApp } from '../../server/app.ts';
import { clock, setClock } from '../../server/clock.ts';
import { Integration, Note } from '../../server/db/entities/index.ts';
import { CLIP_WAIT_MS } from '../../server/domain/sync/pull.service.ts';
import { DEVICE_TICKET_TTL_MS } from '../../server/domain/sync/tokens.ts';
import { seedNoteIdX as x } from '../../server/sync/seed-note-id.ts';
import { describeRange } from '../../src/anchoring/index.ts';
import { CoreType, Flow } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { ExportHighlightType, type PullApp } from '../../src/schemas/sync.ts';
import { createTestDeps, TEST_NOW, type TestDeps } from '../helpers/deps.ts';
import { makeClippedNote, makeQueuedNote } from '../helpers/notes.ts';
import {
  fileName,
  highlightLink,
  idFromFileName,
  LogseqGraph,
  renderedTags,
  type SeedPluginEntry,
} from '../helpers/seed-plugins.ts';
import { article } from '../helpers/site.ts';
import { highlightBody, logSettled, noteWithBody } from '../helpers/sync.ts';
import { signedInUser } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';

// The seed product's plugin protocol (docs/SEED-PROTOCOL.md), driven the way
// its plugins drive it: the Obsidian plugin's init → check pass → content pass → ack, the
// Logseq plugin's single pass, both with the seed's envelope, headers and query parameters.

let deps: TestDeps;
let app: Express;
beforeAll(async () => {
  // A fixed public origin, so links in answers do not depend on the port of each request.
  deps = await createTestDeps({ PUBLIC_URL: 'http://margin.test' });
  app = createApp(deps);
});
afterAll(() => deps.close());

type Signed = Awaited<ReturnType<typeof signedInUser>>;
const SERVICE = { obsidian: 7, logseq: 11, siyuan: 34 } as const;
const ENDPOINT = { obsidian: 'obsidianwucai', logseq: 'logseqwucai', siyuan: 'siyuanwucaiplugin' } as const;
const HEADER = { obsidian: 'Obsidian-Client', logseq: 'Logseq-Client', siyuan: 'Siyuan-Client' } as const;

/** The plugins' client ids: two `Math.random().toString(36)` pieces. */
const newClientId = () => newId(24).toLowerCase().replace(/-/g, '0');

interface SeedEntry {
  noteIdX: string;
  noteType: number;
  highlights: { refid: string; note: string; annonation: string }[];
  [field: string]: unknown;
}

class SeedPlugin {
  /** What the plugin wrote: each note's last entry. */
  readonly vault = new Map<string, SeedEntry>();
  /** The plugin's folder in the vault: made with the first note written. */
  folder = false;
  cursor = '';
  downloads = 0;
  token = '';

  readonly app: PullApp;
  readonly clientId: string;

  constructor(app: PullApp, clientId = newClientId()) {
    this.app = app;
    this.clientId = clientId;
  }

  call(path: string, body: Record<string, unknown>, token = this.token) {
    const query = `appid=20&ep=${ENDPOINT[this.app]}&version=24.1.14&reqtime=${Math.floor(Date.now() / 1000)}`;
    return request(app)
      .post(`${path}?${query}`)
      .set('AUTHORIZATION', `Token ${token}`)
      .set(HEADER[this.app], this.clientId)
      .send({ ...body, v: 240114, serviceId: SERVICE[this.app] });
  }

  sync(path: string, body: Record<string, unknown>) {
    return this.call(`/apix/openapi/wucai/sync/${path}`, body);
  }

  /** The device flow: opens the confirmation page (the user confirms), then polls for the token. */
  async connect(user: Signed) {
    const pending = await this.call('/page/auth/openapi/gettoken', { did: this.clientId }).expect(200);
    expect(pending.body.code).not.toBe(1);
    await user.caller.sync.confirmDevice({ serviceId: SERVICE[this.app], clientId: this.clientId });
    const { body } = await this.call('/page/auth/openapi/gettoken', { did: this.clientId }).expect(200);
    expect(body.code).toBe(1);
    this.token = body.data.accessToken;
    return this;
  }

  /** The plugins' rule for a cursor the server sends: kept unless empty or the same. */
  private take(sent: string, saved: string): string {
    if (sent === saved) return '';
    return sent || saved;
  }

  async init(noteDirDeleted = false) {
    await logSettled(deps);
    const res = await this.sync('init', { noteDirDeleted, lastCursor2: this.cursor }).expect(200);
    expect(res.body.code).toBe(1);
    this.cursor = this.take(res.body.data.lastCursor2, this.cursor) || this.cursor;
    return res.body.data;
  }

  async download(cursor: string, checkUpdate: boolean) {
    const res = await this.sync('download', {
      lastCursor2: cursor,
      noteIdXs: [],
      flagx: '',
      writeStyle: 1,
      out: 'json',
      checkUpdate,
    }).expect(200);
    expect(res.body.code).toBe(1);
    this.downloads++;
    return res.body.data as { notes: SeedEntry[]; lastCursor2: string };
  }

  write(notes: SeedEntry[]) {
    for (const entry of notes) this.vault.set(entry.noteIdX, entry);
    if (notes.length) this.folder = true;
  }

  /** The user deleted the plugin's folder. */
  deleteFolder() {
    this.folder = false;
    this.vault.clear();
  }

  /**
   * The Obsidian plugin's sync: init (from the start when its folder is missing; waiting while
   * PENDING), a check pass and a content pass, each writing what it gets and moving on from the
   * cursor it reached, then the ack.
   */
  async obsidianSync() {
    const noteDirDeleted = !this.folder;
    if (noteDirDeleted) this.cursor = '';
    const init = await this.init(noteDirDeleted);
    expect(init.taskStatus).toBe('SYNCING');
    for (const checkUpdate of [true, false]) {
      for (;;) {
        const from = this.cursor;
        const { notes, lastCursor2 } = await this.download(from, checkUpdate);
        this.write(notes);
        const next = this.take(lastCursor2, from);
        if (next) this.cursor = next;
        if (!next || notes.length === 0) break;
      }
    }
    const ack = await this.sync('ack', { lastCursor2: this.cursor }).expect(200);
    expect(ack.body.code).toBe(1);
    return init;
  }

  /** The Logseq plugin's sync: one pass; it acks only when an empty answer moved the cursor. */
  async logseqSync() {
    const init = await this.init();
    expect(init.taskStatus).toBe('SYNCING');
    for (;;) {
      const from = this.cursor;
      const { notes, lastCursor2 } = await this.download(from, false);
      this.write(notes);
      const next = this.take(lastCursor2, from);
      if (!next || next === from) return init;
      this.cursor = next;
      if (notes.length === 0) {
        await this.sync('ack', { lastCursor2: this.cursor }).expect(200);
        return init;
      }
    }
  }
}

const note = (user: Signed, title: string, tags: string[] = []) => noteWithBody(deps, user, title, tags);
const highlight = highlightBody;

const noteRow = (id: string) => deps.orm.em.fork().findOneOrFail(Note, { id });
const integrationRow = (user: Signed, app: PullApp = 'obsidian') =>
  deps.orm.em.fork().findOneOrFail(Integration, { user: user.user.id, app });

const NOTE_ENTRY_FIELDS = [
  'author',
  'citekey',
  'createAt',
  'highlights',
  'isStar',
  'noteId',
  'noteIdX',
  'noteType',
  'notetags',
  'pageNote',
  'pageScore',
  'publishat',
  'readurl',
  'sou',
  'tags',
  'title',
  'updateAt',
  'url',
  'wucaiurl',
];
const HIGHLIGHT_FIELDS = [
  'annonation',
  'annotags',
  'color',
  'createat',
  'highlighttype',
  'imageUrl',
  'note',
  'refid',
  'refurl',
  'slotId',
  'slotid',
  'updateat',
  'url',
];

describe('the seed product’s plugin protocol', () => {
  test('gettoken: a non-1 code while pending, the token once confirmed, then expired; tickets expire', async () => {
    const user = await signedInUser(deps);
    const plugin = new SeedPlugin('obsidian');
    const gettoken = () => plugin.call('/page/auth/openapi/gettoken', { did: plugin.clientId }).expect(200);
    expect((await gettoken()).body).toMatchObject({ code: 20001, message: expect.any(String), data: null });
    await user.caller.sync.confirmDevice({ serviceId: SERVICE.obsidian, clientId: plugin.clientId });
    const { body } = await gettoken();
    expect(body).toEqual({ code: 1, message: 'ok', data: { accessToken: expect.stringMatching(/^msync_/) } });
    expect((await gettoken()).body.code).toBe(20002);

    const late = new SeedPlugin('obsidian');
    await user.caller.sync.confirmDevice({ serviceId: SERVICE.obsidian, clientId: late.clientId });
    try {
      setClock(new Date(clock.now().getTime() + DEVICE_TICKET_TTL_MS + 60_000));
      const expired = await late.call('/page/auth/openapi/gettoken', { did: late.clientId }).expect(200);
      expect(expired.body.code).toBe(20002);
    } finally {
      setClock(TEST_NOW);
    }
  });

  test('the Obsidian plugin’s first sync gets every note with its highlights, in batches past 100', async () => {
    const user = await signedInUser(deps);
    const notes: Note[] = [];
    for (let i = 0; i < 130; i++)
      notes.push(await note(user, `Page ${i}`, i === 0 ? ['read', 'deep work'] : []));
    const marked = await highlight(user, notes[0]!.id, 'a thought');
    await user.caller.daily.append({ text: 'Today I read' });
    const plugin = await new SeedPlugin('obsidian').connect(user);

    const init = await plugin.obsidianSync();
    expect(init).toMatchObject({ totalNotes: 131, notesExported: 131, lastCursor2: '', downloadEP: '' });
    expect(plugin.vault.size).toBe(131);
    expect(plugin.downloads).toBeGreaterThan(3);
    expect((await integrationRow(user)).cursor).toBe(plugin.cursor);

    const entry = plugin.vault.get(x(notes[0]!.id))!;
    expect(Object.keys(entry).sort()).toEqual(NOTE_ENTRY_FIELDS);
    expect(entry).toMatchObject({
      noteIdX: x(notes[0]!.id),
      noteId: x(notes[0]!.id),
      title: 'Page 0',
      url: notes[0]!.url,
      noteType: 1,
      createAt: Math.floor(notes[0]!.createdAt.getTime() / 1000),
      pageScore: 0,
      tags: ['#read', '#deep-work'],
      notetags: 'read,deep work',
    });
    expect(entry.wucaiurl).toMatch(/^http:\/\/margin\.test\/\?/);
    expect(entry.readurl).toBe(entry.wucaiurl);
    const [h] = entry.highlights as unknown as Record<string, unknown>[];
    expect(Object.keys(h!).sort()).toEqual(HIGHLIGHT_FIELDS);
    expect(h).toMatchObject({
      note: 'body text',
      annonation: 'a thought',
      refid: marked.id,
      slotId: 3,
      slotid: 3,
      highlighttype: ExportHighlightType.text,
      url: notes[0]!.url,
      createat: Math.floor(marked.createdAt / 1000),
    });
    expect(h!.refurl).toBe('#:~:text=body%20text');
    const daily = [...plugin.vault.values()].find((e) => e.noteType === 3)!;
    expect(daily.pageNote).toContain('Today I read');
  });

  test('check pass and content pass answer alike from the same cursor; an exhausted export is []', async () => {
    const user = await signedInUser(deps);
    const notes: Note[] = [];
    for (let i = 0; i < 3; i++) notes.push(await note(user, `Alike ${i}`));
    const plugin = await new SeedPlugin('obsidian').connect(user);
    await plugin.obsidianSync();
    const from = plugin.cursor;
    for (const n of notes) await highlight(user, n.id);

    await plugin.init();
    const check = await plugin.download(from, true);
    const content = await plugin.download(from, false);
    expect(check.notes.map((e) => e.noteIdX).sort()).toEqual(notes.map((n) => x(n.id)).sort());
    expect(check.notes.every((e) => e.highlights.length === 1)).toBe(true);
    expect(content).toEqual(check);
    // Exhausted: no notes (the cursor may move up past the log's end, so the plugin acks).
    const end = await plugin.download(check.lastCursor2, false);
    expect(end.notes).toEqual([]);
    expect((await plugin.download(end.lastCursor2, true)).notes).toEqual([]);
  });

  test('incremental: a new highlight, an edited annotation, a deleted highlight each re-send their note; a trashed note is left out', async () => {
    const user = await signedInUser(deps);
    const a = await note(user, 'Alpha');
    const b = await note(user, 'Beta');
    const c = await note(user, 'Gamma');
    const plugin = await new SeedPlugin('obsidian').connect(user);
    await plugin.obsidianSync();
    expect(plugin.vault.size).toBe(3);
    plugin.vault.clear();

    const added = await highlight(user, a.id, 'first');
    await plugin.obsidianSync();
    expect([...plugin.vault.keys()]).toEqual([x(a.id)]);
    expect(plugin.vault.get(x(a.id))!.highlights.map((h) => h.refid)).toEqual([added.id]);

    plugin.vault.clear();
    await user.caller.highlights.update({ id: added.id, annotation: 'second' });
    await plugin.obsidianSync();
    expect(plugin.vault.get(x(a.id))!.highlights[0]!.annonation).toBe('second');

    plugin.vault.clear();
    await highlight(user, b.id);
    await user.caller.highlights.delete({ id: added.id });
    await plugin.obsidianSync();
    expect(new Set(plugin.vault.keys())).toEqual(new Set([x(a.id), x(b.id)]));
    expect(plugin.vault.get(x(a.id))!.highlights).toEqual([]);

    // The seed protocol has no removals: a batch of removals only is passed over, the sync ends.
    plugin.vault.clear();
    await user.caller.notes.trash({ ids: [c.id] });
    const before = plugin.cursor;
    await plugin.obsidianSync();
    expect(plugin.vault.size).toBe(0);
    expect(plugin.cursor).not.toBe(before);
    expect((await plugin.download(plugin.cursor, false)).notes).toEqual([]);
  });

  test('exportConfig carries the integration’s settings, templates only when the user wrote their own', async () => {
    const user = await signedInUser(deps);
    const obsidian = await new SeedPlugin('obsidian').connect(user);
    expect((await obsidian.init()).exportConfig).toEqual({
      titleTemplate: '',
      obTemplate: '',
      writeStyle: 1,
      tagStyle: 1,
      highlightStyle: 1,
      annotationStyle: 1,
      pageMirrorStyle: 2,
      truncateTile255: 0,
      obQuery: '',
    });
    const note = '---\nnoteid: {{ noteid }}\n---\n# {{ title }}\n';
    await user.caller.sync.updateSettings({
      app: 'obsidian',
      settings: { writeStyle: 2, tagStyle: 2, templates: { title: '{{ title }}', note } },
    });
    expect((await obsidian.init()).exportConfig).toMatchObject({
      titleTemplate: '{{ title }}',
      obTemplate: note,
      writeStyle: 2,
      tagStyle: 2,
    });

    const siyuan = await new SeedPlugin('siyuan').connect(user);
    expect((await siyuan.init()).exportConfig).toEqual({ sytitlet: '', sytpl: '', sywrites: 1, syquery: '' });
    const logseq = await new SeedPlugin('logseq').connect(user);
    expect((await logseq.init()).exportConfig).toEqual({
      logseqSplitTemplate: '',
      lsqtt: '',
      lsqat: '',
      lsqht: '',
      lsqant: '',
      logseqQuery: '',
    });
  });

  test('the Logseq plugin’s single pass gets every note', async () => {
    const user = await signedInUser(deps);
    const a = await note(user, 'Outline');
    await highlight(user, a.id);
    const plugin = await new SeedPlugin('logseq').connect(user);
    await plugin.logseqSync();
    expect(plugin.vault.get(x(a.id))).toMatchObject({ isStar: false, highlights: [{ slotId: 3 }] });
  });

  test('init is PENDING while a fresh clip is queued or running, SYNCING once it is done; a stuck clip stops holding it', async () => {
    const user = await signedInUser(deps);
    const plugin = await new SeedPlugin('obsidian').connect(user);
    const { note: clipped } = await user.caller.notes.clipHtml({
      url: `https://reader.example/${newId()}`,
      html: article('A long read', ['The first paragraph of a long read.']),
    });
    expect(await plugin.init()).toMatchObject({ taskStatus: 'PENDING', totalNotes: 1, notesExported: 0 });

    const workers = await startWorkers(deps);
    try {
      // The plugin polls init every few seconds while PENDING.
      const ready = await waitFor(async () => {
        const init = await plugin.init();
        return init.taskStatus === 'SYNCING' ? init : undefined;
      }, 30_000);
      expect(ready).toMatchObject({ totalNotes: 1, notesExported: 1 });
    } finally {
      await workers.close();
    }
    await plugin.obsidianSync();
    expect(plugin.vault.get(x(clipped.id))?.title).toBe('A long read');

    await makeQueuedNote(deps, user.user.id, { url: 'https://stuck.example/a', title: 'Stuck' });
    expect((await plugin.init()).taskStatus).toBe('PENDING');
    try {
      setClock(new Date(clock.now().getTime() + CLIP_WAIT_MS + 60_000));
      expect((await plugin.init()).taskStatus).toBe('SYNCING');
    } finally {
      setClock(TEST_NOW);
    }
  });

  test('a second client gets HTTP 409 while the first syncs, and goes ahead after the first acks', async () => {
    const user = await signedInUser(deps);
    await note(user, 'Contended');
    const first = await new SeedPlugin('obsidian').connect(user);
    const second = await new SeedPlugin('obsidian').connect(user);
    await first.init();
    const refused = await second.sync('init', { noteDirDeleted: false, lastCursor2: '' }).expect(409);
    expect(refused.body.code).toBe(40900);
    await second.sync('download', { lastCursor2: '', checkUpdate: false }).expect(409);
    await first.obsidianSync();
    await second.obsidianSync();
    expect(second.vault.size).toBe(1);

    const a = new SeedPlugin('obsidian', newClientId());
    const b = new SeedPlugin('obsidian', newClientId());
    a.token = first.token;
    b.token = first.token;
    const answers = await Promise.all([
      a.sync('init', { lastCursor2: '' }),
      b.sync('init', { lastCursor2: '' }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  test('an unknown or revoked token, or one of another tool, is code 10000', async () => {
    const user = await signedInUser(deps);
    const obsidian = await new SeedPlugin('obsidian').connect(user);
    const logseq = await new SeedPlugin('logseq').connect(user);
    const invalid = async (plugin: SeedPlugin, token: string) => {
      const res = await plugin.call('/apix/openapi/wucai/sync/init', { lastCursor2: '' }, token).expect(200);
      expect(res.body).toMatchObject({ code: 10000, message: expect.any(String), data: null });
    };
    await invalid(obsidian, 'msync_unknown');
    await invalid(obsidian, logseq.token);
    const unknownTool = await request(app)
      .post('/apix/openapi/wucai/sync/init')
      .set('AUTHORIZATION', `Token ${obsidian.token}`)
      .send({ serviceId: 99, lastCursor2: '' })
      .expect(200);
    expect(unknownTool.body.code).toBe(10000);
    const views = await user.caller.sync.tokens();
    for (const view of views) await user.caller.sync.revokeToken({ id: view.id });
    await invalid(obsidian, obsidian.token);
  });

  test('a cursor of another user’s integration is refused (40001) and nothing changes', async () => {
    const owner = await signedInUser(deps);
    await note(owner, 'Owned');
    const theirs = await new SeedPlugin('obsidian').connect(owner);
    await theirs.obsidianSync();
    const user = await signedInUser(deps);
    await note(user, 'Own');
    const plugin = await new SeedPlugin('obsidian').connect(user);
    await plugin.obsidianSync();
    const mine = plugin.cursor;
    for (const path of ['download', 'ack']) {
      const res = await plugin.sync(path, { lastCursor2: theirs.cursor, checkUpdate: false }).expect(200);
      expect(res.body.code).toBe(40001);
    }
    expect((await integrationRow(user)).cursor).toBe(mine);
    expect((await integrationRow(owner)).cursor).toBe(theirs.cursor);
  });

  test('garbage is refused with 40000: NUL bytes, missing client header, wrong types, huge cursors', async () => {
    const user = await signedInUser(deps);
    const own = await note(user, 'Kept safe');
    const plugin = await new SeedPlugin('obsidian').connect(user);
    const bad: [string, Record<string, unknown>][] = [
      ['archive', { noteid: `${own.id}\u0000` }],
      ['delete', { noteid: 42 }],
      ['download', { lastCursor2: '', noteIdXs: ['\u0000'] }],
      ['download', { lastCursor2: '', noteIdXs: 'all' }],
      ['download', { lastCursor2: '', checkUpdate: 'yes' }],
      ['init', { noteDirDeleted: 'no' }],
    ];
    for (const [path, body] of bad) {
      const res = await plugin.sync(path, body);
      expect([path, res.status, res.body.code]).toEqual([path, 200, 40000]);
    }
    const hugeCursor = await plugin.sync('download', { lastCursor2: 'x'.repeat(5000) });
    expect([hugeCursor.status, hugeCursor.body.code]).toEqual([200, 40001]);
    const headless = await request(app)
      .post('/apix/openapi/wucai/sync/init')
      .set('AUTHORIZATION', `Token ${plugin.token}`)
      .send({ serviceId: 7, lastCursor2: '' })
      .expect(200);
    expect(headless.body.code).toBe(40000);
    const noService = await plugin.call('/apix/openapi/wucai/sync/init', {}).send({ serviceId: 'seven' });
    expect(noService.body.code).toBe(40000);
    const ep = await request(app)
      .post('/apix/openapi/wucai/sync/init?ep=a&ep=b')
      .set('AUTHORIZATION', `Token ${plugin.token}`)
      .set('Obsidian-Client', plugin.clientId)
      .send({ serviceId: 7 });
    expect(ep.body.code).toBe(40000);
    expect(await noteRow(own.id)).toMatchObject({ flow: Flow.inbox, trashedAt: null });
  });

  test('archive and delete from the note tool: the user’s own note changes, another user’s is 40400 and unchanged', async () => {
    const user = await signedInUser(deps);
    const plugin = await new SeedPlugin('siyuan').connect(user);
    const archived = await note(user, 'To archive');
    const trashed = await note(user, 'To trash');
    const other = await signedInUser(deps);
    const theirs = await note(other, 'Someone else’s');

    expect((await plugin.sync('archive', { noteid: archived.id }).expect(200)).body.code).toBe(1);
    expect((await noteRow(archived.id)).flow).toBe(Flow.archive);
    expect((await plugin.sync('delete', { noteid: trashed.id }).expect(200)).body.code).toBe(1);
    expect((await noteRow(trashed.id)).trashedAt).not.toBeNull();
    for (const path of ['archive', 'delete']) {
      expect((await plugin.sync(path, { noteid: theirs.id }).expect(200)).body.code).toBe(40400);
    }
    expect(await noteRow(theirs.id)).toMatchObject({ flow: Flow.inbox, trashedAt: null });
  });

  test('run once and a deleted folder send everything again; noteIdXs re-send notes without moving the cursor', async () => {
    const user = await signedInUser(deps);
    const a = await note(user, 'Again A');
    await note(user, 'Again B');
    const plugin = await new SeedPlugin('obsidian').connect(user);
    await plugin.obsidianSync();
    plugin.vault.clear();
    await plugin.obsidianSync();
    expect(plugin.vault.size).toBe(0);

    await user.caller.sync.runOnce({ app: 'obsidian' });
    expect((await plugin.obsidianSync()).lastCursor2).toBe('start');
    expect(plugin.vault.size).toBe(2);

    plugin.deleteFolder();
    await plugin.obsidianSync();
    expect(plugin.vault.size).toBe(2);

    const cursor = plugin.cursor;
    const res = await plugin.sync('download', { lastCursor2: cursor, noteIdXs: [x(a.id)] }).expect(200);
    expect(res.body.data.notes.map((e: SeedEntry) => e.noteIdX)).toEqual([x(a.id)]);
    expect(res.body.data.lastCursor2).toBe(cursor);
  });

  test('the confirmation page is the client app’s; plugins get CORS answers', async () => {
    const page = await request(app).get(`/page/gentoken/7/${newClientId()}`).expect(200);
    expect(page.headers['content-type']).toContain('text/html');
    const preflight = await request(app)
      .options('/apix/openapi/wucai/sync/download')
      .set('Origin', 'app://obsidian.md')
      .set('Access-Control-Request-Headers', 'authorization,content-type,obsidian-client')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toContain('obsidian-client');
  });
});

// Each entry as the seed's plugins read it (test/helpers/seed-plugins.ts): a change to the seed
// front that would break one of them fails here.
describe('entries as the seed product’s plugins read them', () => {
  const entryTitled = (plugin: SeedPlugin, title: string) =>
    [...plugin.vault.values()].find((e) => e.title === title) as unknown as SeedPluginEntry;

  test('page tags render in both tag styles, Chinese and spaced names included', async () => {
    const user = await signedInUser(deps);
    await note(user, '标签', ['中文', '读书笔记', 'deep work']);
    const plugin = await new SeedPlugin('obsidian').connect(user);
    await plugin.obsidianSync();
    expect(renderedTags(entryTitled(plugin, '标签').tags, true)).toBe('#中文 #读书笔记 #deep-work');

    await user.caller.sync.updateSettings({ app: 'obsidian', settings: { tagStyle: 2 } });
    plugin.deleteFolder();
    await plugin.obsidianSync();
    expect(renderedTags(entryTitled(plugin, '标签').tags, false)).toBe('[[中文]] [[读书笔记]] [[deep-work]]');
  });

  test('a highlight’s link, made as the plugins make it, opens its page scrolled to the passage', async () => {
    const user = await signedInUser(deps);
    const page = await makeClippedNote(deps, user.user.id, {
      title: 'Links',
      text: 'Links: the body text to highlight, and a much longer passage that runs on well past eighty characters so that it is linked by its start and its end',
    });
    const short = await highlight(user, page.id);
    const { text } = await user.caller.notes.get({ id: page.id });
    const start = text.indexOf('and a much');
    const long = await user.caller.highlights.create({
      id: newId(),
      noteId: page.id,
      coreType: CoreType.highlight,
      selectors: describeRange(text, start, text.length),
      slotId: 1,
    });
    const plugin = await new SeedPlugin('obsidian').connect(user);
    await plugin.obsidianSync();
    const entry = entryTitled(plugin, 'Links');
    const links = new Map(
      entry.highlights.map((h) => [h.refid, new URL(highlightLink(entry.url, h.refurl))]),
    );

    for (const link of links.values()) expect(`${link.origin}${link.pathname}`).toBe(page.url);
    expect(decodeURIComponent(links.get(short.id)!.hash)).toBe('#:~:text=body text');
    expect(decodeURIComponent(links.get(long.id)!.hash)).toBe(
      '#:~:text=and a much longer passage,its start and its end',
    );
  });

  test('archive and delete by the id a plugin reads back from the file name, for ids with capitals and hyphens', async () => {
    const user = await signedInUser(deps);
    const archived = await makeClippedNote(deps, user.user.id, {
      id: `WfcWpLS2Qv-kIuwN${newId(8)}`,
      title: 'Keep-me',
      text: 'a',
    });
    const trashed = await makeClippedNote(deps, user.user.id, {
      id: `-Ab-${newId(10)}-`,
      title: '读书',
      text: 'b',
    });
    const plain = await makeClippedNote(deps, user.user.id, {
      id: `plain0${newId(10).toLowerCase().replace(/-/g, '1')}`,
      title: 'x',
      text: 'c',
    });
    const plugin = await new SeedPlugin('obsidian').connect(user);
    await plugin.obsidianSync();
    const idFrom = (title: string) => idFromFileName(`WuCai/${fileName(entryTitled(plugin, title))}`)!;

    expect(idFrom('x')).toBe(plain.id);
    const noteIds = [idFrom('Keep-me'), idFrom('读书')];
    expect(new Set(noteIds).size).toBe(2);
    for (const id of noteIds) expect(id).toMatch(/^[a-z0-9_]+$/);
    expect((await plugin.sync('archive', { noteid: idFrom('Keep-me') }).expect(200)).body.code).toBe(1);
    expect((await plugin.sync('delete', { noteid: idFrom('读书') }).expect(200)).body.code).toBe(1);
    expect(await noteRow(archived.id)).toMatchObject({ flow: Flow.archive, trashedAt: null });
    expect((await noteRow(trashed.id)).trashedAt).not.toBeNull();
    expect(await noteRow(plain.id)).toMatchObject({ flow: Flow.inbox, trashedAt: null });

    // A plugin that synced before noteIdX was encoded sends the id itself.
    expect((await plugin.sync('archive', { noteid: plain.id }).expect(200)).body.code).toBe(1);
    expect((await noteRow(plain.id)).flow).toBe(Flow.archive);
  });

  test('a daily note is titled by its day, in every tool', async () => {
    const user = await signedInUser(deps);
    const { date: dailyDate } = await user.caller.daily.append({ text: '今天读了' });
    for (const app of ['obsidian', 'logseq', 'siyuan'] as const) {
      const plugin = await new SeedPlugin(app).connect(user);
      await (app === 'obsidian' ? plugin.obsidianSync() : plugin.logseqSync());
      const daily = [...plugin.vault.values()].find((e) => e.noteType === 3)!;
      expect(daily.title).toBe(dailyDate);
      expect(fileName(daily as never)).toBe(`${dailyDate}-${daily.noteIdX}.md`);
    }
  });

  test('Logseq: a daily note edited between syncs gets its new paragraphs once, and nothing twice', async () => {
    const user = await signedInUser(deps);
    const plugin = await new SeedPlugin('logseq').connect(user);
    const graph = new LogseqGraph();
    const sync = async () => {
      await plugin.logseqSync();
      graph.write([...plugin.vault.values()] as never);
    };
    await user.caller.daily.append({ text: 'First thought' });
    await sync();
    await user.caller.daily.append({ text: 'Second thought' });
    await sync();
    await user.caller.daily.append({ text: 'First' });
    await sync();
    const [page] = [...graph.notes.values()];
    // Each append is a paragraph of its own, stamped with its time.
    const paragraphs = page!.blocks.map((b) => b.content.replace(/^\*\*\d\d:\d\d\*\* /, ''));
    expect(paragraphs).toEqual(['First thought', 'Second thought', 'First']);
  });
});
