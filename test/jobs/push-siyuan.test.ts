import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SIYUAN_NOTE_ATTRIBUTE } from '../../server/domain/sync/push/siyuan.ts';
import { listenOnLoopback } from '../helpers/loopback-server.ts';
import { type SiyuanServer, startSiyuan } from '../helpers/push-servers.ts';
import {
  connectedReader,
  highlight,
  integrationRow,
  now,
  type PushTestEnv,
  pushSettled,
  readerWithNote,
  startPushTestEnv,
} from '../helpers/push-setup.ts';

let env: PushTestEnv;
let kernel: SiyuanServer;
/** A kernel on loopback the operator has not allowed: a user must not be able to reach it. */
let stranger: SiyuanServer;
/** A port the operator allows where nothing listens. */
let deadPort: number;
/** Answers every request with `impostorReply`: something at the address that is not quite a kernel. */
let impostor: { url: string; close(): Promise<void> };
let impostorReply: { contentType: string; body: string } = { contentType: 'text/plain', body: '' };

const TEXT =
  'A block is the unit of thought. Documents are trees of blocks. ' +
  'References tie one idea to another. Every block has an id that never changes.';

async function freePort(): Promise<number> {
  const server = http.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

beforeAll(async () => {
  kernel = await startSiyuan();
  stranger = await startSiyuan();
  deadPort = await freePort();
  impostor = await listenOnLoopback(
    http.createServer((req, res) => {
      req.resume();
      res.setHeader('content-type', impostorReply.contentType);
      res.end(impostorReply.body);
    }),
  );
  env = await startPushTestEnv({
    FETCH_ALLOW_TARGETS: `${kernel.target},127.0.0.1:${deadPort},${new URL(impostor.url).host}`,
  });
});
afterAll(async () => {
  await env?.close();
  await kernel?.close();
  await stranger?.close();
  await impostor?.close();
});

async function connectReader(title: string) {
  const { reader, note } = await connectedReader(
    env.deps,
    { title, text: TEXT },
    { app: 'siyuan', credentials: { kernelUrl: kernel.origin, token: kernel.token, notebook: 'Margin' } },
  );
  return { reader, note };
}

const documentsOf = (noteId: string) =>
  [...kernel.documents.values()].filter((d) => d.attrs[SIYUAN_NOTE_ATTRIBUTE] === noteId);

describe('connecting SiYuan', () => {
  test('an unreachable kernel, a loopback kernel the operator has not allowed, a wrong token: refused, nothing saved', async () => {
    const { reader } = await readerWithNote(env.deps, 'Kernels', TEXT);
    const connect = (kernelUrl: string, token: string) =>
      reader.caller.sync.connectPush({
        app: 'siyuan',
        credentials: { kernelUrl, token, notebook: 'Margin' },
      });
    await expect(connect(`http://127.0.0.1:${deadPort}`, kernel.token)).rejects.toMatchObject({
      message: 'errors.siyuanUnreachable',
    });
    await expect(connect(stranger.origin, stranger.token)).rejects.toMatchObject({
      message: 'errors.pushAddressRefused',
    });
    await expect(
      connect(`http://localhost:${stranger.origin.split(':')[2]}`, stranger.token),
    ).rejects.toMatchObject({
      message: 'errors.pushAddressRefused',
    });
    expect(stranger.received).toEqual([]);
    await expect(connect(kernel.origin, 'wrong-token')).rejects.toMatchObject({
      message: 'errors.siyuanTokenInvalid',
    });
    await expect(connect('file:///etc/passwd', kernel.token)).rejects.toMatchObject({
      message: 'errors.urlInvalid',
    });
    expect((await integrationRow(env.deps, reader.user.id, 'siyuan'))?.credentials ?? null).toBeNull();
    expect((await reader.caller.sync.integration({ app: 'siyuan' })).bound).toBe(false);
  });

  test("a reply that is not the kernel's, and the kernel's own error, are told apart from no answer", async () => {
    const { reader } = await readerWithNote(env.deps, 'Impostors', TEXT);
    const connect = () =>
      reader.caller.sync.connectPush({
        app: 'siyuan',
        credentials: { kernelUrl: impostor.url, token: 't', notebook: 'Margin' },
      });
    for (const reply of [
      { contentType: 'text/html', body: '<html><body>Router login</body></html>' },
      { contentType: 'application/json', body: '{"ok":true,"notebooks":[]}' },
      { contentType: 'application/json', body: '{"code":"0","msg":"","data":null}' },
    ]) {
      impostorReply = reply;
      await expect(connect(), reply.body).rejects.toMatchObject({ message: 'errors.siyuanUnexpectedReply' });
    }
    // The kernel's own words come back as plain text, one line, without bidi overrides.
    impostorReply = {
      contentType: 'application/json',
      body: JSON.stringify({ code: -1, msg: 'workspace is locked\n\u202eby another process', data: null }),
    };
    await expect(connect()).rejects.toMatchObject({
      message: 'errors.siyuanKernelError',
      cause: { params: { message: 'workspace is locked by another process' } },
    });
    expect((await reader.caller.sync.integration({ app: 'siyuan' })).bound).toBe(false);
  });

  test('the notebook is made when missing and opened when closed; the token never goes back to the client', async () => {
    const { reader } = await readerWithNote(env.deps, 'Notebooks', TEXT);
    const view = await reader.caller.sync.connectPush({
      app: 'siyuan',
      credentials: { kernelUrl: `${kernel.origin}/`, token: kernel.token, notebook: 'Reading notes' },
    });
    expect(view).toMatchObject({ app: 'siyuan', bound: true });
    expect(JSON.stringify(await reader.caller.sync.integrations())).not.toContain(kernel.token);
    const made = kernel.notebooks.find((n) => n.name === 'Reading notes');
    expect(made).toBeDefined();
    expect((await integrationRow(env.deps, reader.user.id, 'siyuan'))?.credentials).toEqual({
      kernelUrl: kernel.origin,
      token: kernel.token,
      notebook: 'Reading notes',
      notebookId: made?.id,
    });

    made!.closed = true;
    await reader.caller.sync.connectPush({
      app: 'siyuan',
      credentials: { kernelUrl: kernel.origin, token: kernel.token, notebook: 'Reading notes' },
    });
    expect(kernel.notebooks.filter((n) => n.name === 'Reading notes')).toEqual([{ ...made, closed: false }]);
  });
});

describe('pushing to SiYuan', () => {
  test('a note is a document marked with its id, overwritten when it changes, removed with it', async () => {
    const { reader, note } = await connectReader('Blocks and trees');
    let since = now();
    const made = await highlight(reader, note, 'Documents are trees of blocks');
    expect(await pushSettled(env.deps, reader.user.id, 'siyuan', since)).toMatchObject({ lastResult: 'ok' });
    const [doc] = documentsOf(note.id);
    const notebook = kernel.notebooks.find((n) => n.name === 'Margin');
    expect(doc).toMatchObject({
      notebook: notebook?.id,
      hpath: '/Margin/Blocks and trees',
      title: 'Blocks and trees',
    });
    expect(doc?.markdown).toContain('Documents are trees of blocks');

    since = now();
    await reader.caller.highlights.update({ id: made.id, annotation: 'Turtles, but blocks.' });
    await pushSettled(env.deps, reader.user.id, 'siyuan', since);
    const docs = documentsOf(note.id);
    expect(docs).toHaveLength(1);
    expect(docs[0]?.id).toBe(doc?.id);
    expect(docs[0]?.markdown).toContain('Turtles, but blocks.');

    // Trashing the note queues a push, which removes its document.
    since = now();
    await reader.caller.notes.trash({ ids: [note.id] });
    await pushSettled(env.deps, reader.user.id, 'siyuan', since);
    expect(documentsOf(note.id)).toEqual([]);
    expect(kernel.documents.has(doc?.id ?? '')).toBe(false);
  });

  test('a document made by a push whose record was lost is found by its attribute, not made twice', async () => {
    const { reader, note } = await connectReader('Ids never change');
    let since = now();
    const made = await highlight(reader, note, 'Every block has an id that never changes');
    await pushSettled(env.deps, reader.user.id, 'siyuan', since);
    const [doc] = documentsOf(note.id);
    // As if the worker died between the kernel's answer and the record.
    await env.deps.orm.em
      .fork()
      .execute(`delete from push_record where user_id = ? and app = 'siyuan'`, [reader.user.id]);
    since = now();
    await reader.caller.highlights.update({ id: made.id, annotation: 'Stable ids, stable links.' });
    await pushSettled(env.deps, reader.user.id, 'siyuan', since);
    const docs = documentsOf(note.id);
    expect(docs.map((d) => d.id)).toEqual([doc?.id]);
    expect(docs[0]?.markdown).toContain('Stable ids, stable links.');
  });

  test('a document made by a create answered 200 in words Margin cannot read is found by its path and marked, not made again', async () => {
    // Every answer to a create is garbled, as many as the job has attempts; connecting pushes the note.
    kernel.garbleNext(5, { method: 'POST', path: '/api/filetree/createDocWithMd' });
    try {
      const { reader, note } = await connectReader('Lost answers');
      expect(await integrationRow(env.deps, reader.user.id, 'siyuan')).toMatchObject({ lastResult: 'ok' });
      const atPath = () => [...kernel.documents.values()].filter((d) => d.hpath === '/Margin/Lost answers');
      expect(atPath()).toHaveLength(1);
      const [doc] = documentsOf(note.id);
      expect(doc?.id).toBe(atPath()[0]?.id);

      const since = now();
      await highlight(reader, note, 'References tie one idea to another');
      await pushSettled(env.deps, reader.user.id, 'siyuan', since);
      expect(atPath()).toMatchObject([
        { id: doc?.id, markdown: expect.stringContaining('References tie one idea to another') },
      ]);
    } finally {
      kernel.garbleNext(0, { method: 'POST', path: '/api/filetree/createDocWithMd' });
    }
  });

  test('a token the kernel no longer accepts unbinds the integration and says why', async () => {
    const { reader, note } = await connectReader('Revoked');
    const token = kernel.token;
    kernel.token = 'changed-in-settings';
    try {
      const since = now();
      await highlight(reader, note, 'References tie one idea to another');
      await pushSettled(env.deps, reader.user.id, 'siyuan', since);
    } finally {
      kernel.token = token;
    }
    expect(await reader.caller.sync.integration({ app: 'siyuan' })).toMatchObject({
      bound: false,
      lastResult: 'error',
      lastError: 'errors.pushKeyRevoked',
    });
  });
});
