import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { SyncApi, SyncApiError } from '../../plugins/core/api.ts';
import { type LocalSettings, SyncClient, statusText } from '../../plugins/core/client.ts';
import { fetchHttp } from '../../plugins/core/http.ts';
import type { PullResult } from '../../plugins/core/pull.ts';
import { emptyState, type SyncState } from '../../plugins/core/state.ts';
import type { Vault } from '../../plugins/core/vault.ts';
import { PageVault } from '../../plugins/logseq/page-vault.ts';
import { createSyncToken } from '../../server/domain/sync/tokens.ts';
import { describeRange } from '../../src/anchoring/index.ts';
import { ClipStatus, CoreType } from '../../src/enums.ts';
import { newClientId } from '../../src/rules/device-flow.ts';
import { newId } from '../../src/rules/id.ts';
import type { IntegrationSettings } from '../../src/schemas/sync.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { article } from '../helpers/site.ts';
import { signedInUser } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';
import { FakeLogseqEditor } from './fake-logseq.ts';
import { FsVault } from './fs-vault.ts';

let deps: TestDeps;
let workers: RunningWorkers;
let server: RunningServer;
let base: string;
const dirs: string[] = [];

beforeAll(async () => {
  deps = await createTestDeps();
  workers = await startWorkers(deps);
  server = await startServer(deps);
  base = server.url;
});
afterAll(async () => {
  await server?.close();
  await workers?.close();
  await deps?.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

type User = Awaited<ReturnType<typeof signedInUser>>;

const PARAGRAPHS = [
  'The quiet reader underlines a sentence about patience and returns to it a week later.',
  'Margins are where a book argues back, one pencilled question at a time.',
  'A highlight without a note is a bookmark; a highlight with a note is a conversation.',
];

async function clip(user: User, title: string) {
  const { note } = await user.caller.notes.clipHtml({
    url: `https://reader.example/${newId()}`,
    html: article(title, PARAGRAPHS),
  });
  return waitFor(async () => {
    const detail = await user.caller.notes.get({ id: note.id });
    return detail.clipStatus === ClipStatus.done ? detail : undefined;
  });
}

async function highlight(
  user: User,
  note: { id: string; text: string },
  phrase: string,
  annotation?: string,
) {
  const start = note.text.indexOf(phrase);
  const created = await user.caller.highlights.create({
    id: newId(),
    noteId: note.id,
    coreType: CoreType.highlight,
    selectors: describeRange(note.text, start, start + phrase.length),
  });
  return annotation ? user.caller.highlights.update({ id: created.id, annotation }) : created;
}

async function tempVault(): Promise<FsVault> {
  const dir = await mkdtemp(join(tmpdir(), 'margin-vault-'));
  dirs.push(dir);
  return new FsVault(dir);
}

interface ClientSetup {
  vault: Vault;
  app?: 'obsidian' | 'logseq';
  state?: Partial<SyncState>;
  settings?: Partial<LocalSettings>;
}

/** A plugin's client as a shell builds it, with its state kept in memory. */
function pluginClient({ vault, app = 'obsidian', state, settings }: ClientSetup) {
  const opened: string[] = [];
  const client = new SyncClient({
    app,
    http: fetchHttp,
    vault,
    state: { ...emptyState(), ...state },
    settings: () => ({ server: base, folderOverride: '', ...settings }),
    saveState: async () => undefined,
    openUrl: (url) => opened.push(url),
    // The plugin waits for the confirmation as long as the test lets it: a count of tries would be
    // a deadline in wall time, which a busy machine reaches before the test has confirmed.
    poll: { intervalMs: 50, maxTries: Number.MAX_SAFE_INTEGER },
    busyRetryMs: 3_600_000,
  });
  return { client, opened };
}

/** A client holding a token made straight in the database (where the device flow is not under test). */
async function tokenClient(user: User, setup: ClientSetup) {
  const clientId = newClientId();
  const { token, view } = await createSyncToken(deps.orm.em.fork(), user.user, {
    app: setup.app ?? 'obsidian',
    clientId,
  });
  return { ...pluginClient({ ...setup, state: { token, clientId, ...setup.state } }), tokenId: view.id };
}

async function syncOk(client: SyncClient): Promise<PullResult> {
  const result = await client.sync();
  expect(client.status, JSON.stringify(client.status)).toMatchObject({ kind: 'idle' });
  return result!;
}

/**
 * Syncs until `arrived` holds, adding up what the syncs did. The server sends a change once no
 * older transaction is still running anywhere on the database server (server/domain/sync/
 * changes.ts), so on a busy machine a change can take a moment to show, as for a real plugin.
 */
async function syncUntil(client: SyncClient, arrived: () => Promise<boolean>): Promise<PullResult> {
  const total: PullResult = { folder: '', cursor: '', written: 0, renamed: 0, removed: 0, kept: [] };
  await waitFor(
    async () => {
      const result = await syncOk(client);
      Object.assign(total, {
        folder: result.folder,
        cursor: result.cursor,
        written: total.written + result.written,
        renamed: total.renamed + result.renamed,
        removed: total.removed + result.removed,
        kept: [...total.kept, ...result.kept],
      });
      return (await arrived()) || undefined;
    },
    15_000,
    'the change to arrive',
  );
  return total;
}

/** Template changes apply to notes already synced after "run once", as in Margin's settings page. */
async function changeSettings(
  user: User,
  app: 'obsidian' | 'logseq',
  settings: Partial<IntegrationSettings>,
) {
  await user.caller.sync.updateSettings({ app, settings });
  await user.caller.sync.runOnce({ app });
}

const pathOf = (client: SyncClient, noteId: string) => client.state.notes[noteId]?.path;
const fileText = (vault: FsVault, path: string | undefined) => readFile(join(vault.root, path!), 'utf8');

describe('the Obsidian plugin against the real server', () => {
  test('device flow: the confirmation page for service 7 asks for the code the plugin shows; the token once, 410 after', async () => {
    const user = await signedInUser(deps);
    const vault = await tempVault();
    const { client, opened } = pluginClient({ vault });
    const connecting = client.connect();
    await waitFor(async () => opened[0]);
    const url = new URL(opened[0]!);
    expect(url.origin).toBe(base);
    const [, page, gentoken, serviceId, encodedId] = url.pathname.split('/');
    const clientId = decodeURIComponent(encodedId!);
    expect([page, gentoken, serviceId]).toEqual(['page', 'gentoken', '7']);
    expect(url.search).toBe('?code=shown');
    expect(clientId).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
    // The code is shown by the plugin and is nowhere in the page's address.
    const { status } = client;
    if (status.kind !== 'connecting') throw new Error(`not connecting: ${status.kind}`);
    expect(status.code).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);
    expect(statusText(status)).toContain(status.code);
    expect(opened[0]).not.toContain(status.code.replace('-', ''));

    // Without the code, or with another, nothing is confirmed and the plugin keeps waiting.
    await expect(user.caller.sync.confirmDevice({ serviceId: 7, clientId })).rejects.toMatchObject({
      cause: { messageKey: 'errors.deviceCodeNeeded' },
    });
    const wrong = status.code === 'BBBB-BBBB' ? 'CCCC-CCCC' : 'BBBB-BBBB';
    await expect(
      user.caller.sync.confirmDevice({ serviceId: 7, clientId, userCode: wrong }),
    ).rejects.toMatchObject({ cause: { messageKey: 'errors.deviceCodeWrong' } });
    expect(client.status.kind).toBe('connecting');
    // The code as a user may type it: lower case, without the hyphen.
    await user.caller.sync.confirmDevice({
      serviceId: 7,
      clientId,
      userCode: status.code.replace('-', ' ').toLowerCase(),
    });
    await expect(connecting).resolves.toBe(true);
    expect(client.state).toMatchObject({ token: expect.any(String), clientId, cursor: null });
    // The ticket is spent.
    const api = new SyncApi(fetchHttp, base);
    await expect(api.token(clientId, status.code.replace('-', ''))).rejects.toMatchObject({ status: 410 });

    // The token works: the note is there after the first sync.
    const note = await clip(user, 'Device flow');
    await syncOk(client);
    expect(await fileText(vault, pathOf(client, note.id))).toContain(`margin_id: ${note.id}`);
  });

  test('first sync, then incremental: a new highlight, an edited annotation, a deleted highlight, a trashed note', async () => {
    const user = await signedInUser(deps);
    const vault = await tempVault();
    const { client } = await tokenClient(user, { vault });
    const note = await clip(user, 'Patience');
    const other = await clip(user, 'Other');
    const first = await highlight(user, note, 'a sentence about patience');

    const initial = await syncOk(client);
    expect(initial).toMatchObject({ folder: 'Margin', written: 2, removed: 0 });
    const path = pathOf(client, note.id)!;
    expect(path).toMatch(new RegExp(`^Margin/.*-${note.id}\\.md$`));
    expect(await fileText(vault, path)).toContain('a sentence about patience');
    expect(client.state.cursor).toEqual(expect.any(String));
    const otherPath = pathOf(client, other.id)!;
    const otherText = await fileText(vault, otherPath);

    const second = await highlight(user, note, 'where a book argues back', 'Marginalia as dialogue');
    const contains = (text: string) => async () => (await fileText(vault, path)).includes(text);
    // Only the changed note is written.
    expect(await syncUntil(client, contains('Marginalia as dialogue'))).toMatchObject({ written: 1 });
    expect(await fileText(vault, path)).toContain('where a book argues back');
    expect(await fileText(vault, otherPath)).toBe(otherText);

    await user.caller.highlights.update({ id: second.id, annotation: 'Rewritten thought' });
    await syncUntil(client, contains('Rewritten thought'));
    expect(await fileText(vault, path)).not.toContain('Marginalia as dialogue');

    await user.caller.highlights.delete({ id: first.id });
    await syncUntil(client, async () => !(await contains('a sentence about patience')()));

    await user.caller.notes.trash({ ids: [note.id] });
    expect(await syncUntil(client, async () => !(await vault.exists(path)))).toMatchObject({ removed: 1 });
    expect(client.state.notes[note.id]).toBeUndefined();
    expect(await vault.exists(otherPath)).toBe(true);

    // Nothing new: nothing is written.
    expect(await syncOk(client)).toMatchObject({ written: 0, renamed: 0, removed: 0 });
  });

  test("partial mode keeps the user's own text; a deleted note's file they edited stays", async () => {
    const user = await signedInUser(deps);
    await changeSettings(user, 'obsidian', { writeStyle: 2 });
    const vault = await tempVault();
    const { client } = await tokenClient(user, { vault });
    const note = await clip(user, 'Partial');
    const untouched = await clip(user, 'Untouched');
    await highlight(user, note, 'a sentence about patience');
    await syncOk(client);
    const path = pathOf(client, note.id)!;
    const written = await fileText(vault, path);
    expect(written).toContain('%%begin highlights%%');

    const mine = written.replace('## Highlights', 'My own summary, written in Obsidian.\n\n## Highlights');
    await writeFile(join(vault.root, path), `${mine}\nMy closing thoughts.\n`);
    await highlight(user, note, 'a highlight with a note is a conversation');
    await syncUntil(client, async () => (await fileText(vault, path)).includes('is a conversation'));
    const merged = await fileText(vault, path);
    expect(merged).toContain('My own summary, written in Obsidian.');
    expect(merged).toContain('My closing thoughts.');
    expect(merged).toContain('a highlight with a note is a conversation');
    expect(merged.match(/%%begin highlights%%/g)).toHaveLength(1);

    const untouchedPath = pathOf(client, untouched.id)!;
    await user.caller.notes.trash({ ids: [note.id, untouched.id] });
    const result = await syncUntil(client, async () => !(await vault.exists(untouchedPath)));
    expect(result.kept).toEqual([path]);
    expect(await vault.exists(path)).toBe(true);
    expect(result.removed).toBe(1);
    expect(client.state.notes[note.id]).toBeUndefined();
  });

  test('a title template change renames the file; the note never gets a second file', async () => {
    const user = await signedInUser(deps);
    await changeSettings(user, 'obsidian', { writeStyle: 2 });
    const vault = await tempVault();
    const { client } = await tokenClient(user, { vault });
    const note = await clip(user, 'Renamed');
    await syncOk(client);
    const before = pathOf(client, note.id)!;
    await writeFile(join(vault.root, before), `${await fileText(vault, before)}\nKept across the rename.\n`);

    // writeStyle is sent again: zUpdateSettingsInput's `.partial()` still applies zod's defaults,
    // so an update naming only the templates would put writeStyle back to 1 (reported).
    await changeSettings(user, 'obsidian', { writeStyle: 2, templates: { title: 'Read {{ title }}' } });
    const result = await syncOk(client);
    expect(result.renamed).toBe(1);
    const after = pathOf(client, note.id)!;
    expect(after).toBe(`Margin/Read Renamed-${note.id}.md`);
    expect(await vault.exists(before)).toBe(false);
    expect(await fileText(vault, after)).toContain('Kept across the rename.');
    const files = (await vault.list('Margin')).filter((file) => file.endsWith(`-${note.id}.md`));
    expect(files).toEqual([after]);
  });

  test('a lost note map: the file is found again by its margin_id, not written twice', async () => {
    const user = await signedInUser(deps);
    const vault = await tempVault();
    const note = await clip(user, 'Found again');
    const { client } = await tokenClient(user, { vault });
    await syncOk(client);
    const path = pathOf(client, note.id)!;
    // The user moved it into a subfolder and the plugin's data was lost.
    await vault.rename(path, `Margin/Sub/Moved by hand.md`);
    const { client: fresh } = await tokenClient(user, { vault });
    await syncOk(fresh);
    expect(pathOf(fresh, note.id)).toBe(`Margin/Sub/${path.slice('Margin/'.length)}`);
    expect((await vault.list('Margin')).filter((file) => file.includes(note.id))).toHaveLength(1);
  });

  test('a local folder override, and a deleted folder is synced again from the start', async () => {
    const user = await signedInUser(deps);
    const vault = await tempVault();
    const note = await clip(user, 'Elsewhere');
    const { client } = await tokenClient(user, { vault, settings: { folderOverride: 'Reading/Margin' } });
    expect(await syncOk(client)).toMatchObject({ folder: 'Reading/Margin' });
    const path = pathOf(client, note.id)!;
    expect(path.startsWith('Reading/Margin/')).toBe(true);

    await rm(join(vault.root, 'Reading'), { recursive: true });
    await syncOk(client);
    expect(await vault.exists(path)).toBe(true);
  });

  test('409 while another client holds the lease; the busy client syncs once it is released', async () => {
    const user = await signedInUser(deps);
    await clip(user, 'Leased');
    const holder = await tokenClient(user, { vault: await tempVault() });
    const holderApi = new SyncApi(fetchHttp, base, holder.client.state.token);
    const holderId = holder.client.state.clientId!;
    const init = await holderApi.init(holderId, true);

    const vault = await tempVault();
    const { client } = await tokenClient(user, { vault });
    expect(await client.sync()).toBeNull();
    expect(client.status).toMatchObject({ kind: 'busy', message: expect.any(String) });
    expect((client.status as { message: string }).message).not.toMatch(/^HTTP/);
    expect(client.connected).toBe(true);

    const page = await holderApi.download(holderId, init.cursor);
    await holderApi.ack(holderId, page.cursor);
    await syncOk(client);
    client.dispose();
  });

  test('a revoked token: the plugin forgets it and shows the server message', async () => {
    const user = await signedInUser(deps);
    await clip(user, 'Revoked');
    const vault = await tempVault();
    const { client, tokenId } = await tokenClient(user, { vault });
    await syncOk(client);
    await user.caller.sync.revokeToken({ id: tokenId });
    expect(await client.sync()).toBeNull();
    expect(client.status).toMatchObject({ kind: 'disconnected', message: expect.any(String) });
    expect((client.status as { message: string }).message).not.toMatch(/^HTTP/);
    expect(client.state.token).toBeNull();
    expect(client.connected).toBe(false);
  });

  test('errors carry the server code and message', async () => {
    const api = new SyncApi(fetchHttp, base, 'msync_not-a-real-token');
    const error = await api.init(newClientId(), false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncApiError);
    expect(error).toMatchObject({ status: 401, code: expect.any(String), message: expect.any(String) });
  });
});

describe('the Logseq plugin against the real server (Logseq itself faked)', () => {
  test('one page per note from the outline Markdown, renamed and deleted with the note', async () => {
    const user = await signedInUser(deps);
    const editor = new FakeLogseqEditor();
    const { client } = await tokenClient(user, { vault: new PageVault(editor), app: 'logseq' });
    const note = await clip(user, 'Outline');
    await highlight(user, note, 'where a book argues back', 'A note on it');
    await syncOk(client);

    const pageName = pathOf(client, note.id)!.replace(/\.md$/, '');
    expect(pageName).toBe(`Margin/Outline-${note.id}`);
    const blocks = (await editor.getPageBlocksTree(pageName))!;
    expect(blocks[0]!.content).toContain(`margin-id:: ${note.id}`);
    const all = JSON.stringify(blocks);
    expect(all).toContain('where a book argues back');
    expect(all).toContain('A note on it');
    // The annotation is a child block of its highlight.
    const highlights = blocks.find((block) => block.content === 'Highlights');
    expect(highlights?.children?.[0]).toMatchObject({ children: [{ content: 'A note on it' }] });

    await changeSettings(user, 'logseq', { templates: { title: 'Read {{ title }}' } });
    expect(await syncOk(client)).toMatchObject({ renamed: 1 });
    expect(await editor.getPage(pageName)).toBeNull();
    expect(await editor.getPage(`Margin/Read Outline-${note.id}`)).not.toBeNull();

    await user.caller.notes.trash({ ids: [note.id] });
    await syncUntil(client, async () => editor.pages.size === 0);
  });
});
