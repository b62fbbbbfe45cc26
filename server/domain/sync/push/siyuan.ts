import { z } from 'zod';
import { AppError } from '../../../../src/errors.ts';
import { zSiyuanCredentials } from '../../../../src/schemas/sync.ts';
import { renderNote } from '../templates/render.ts';
import {
  type ApiReply,
  callApi,
  field,
  isAuthStatus,
  isSuccessStatus,
  PUSH_ERRORS,
  PushCallError,
  type PushEnv,
  PushRefusedError,
} from './push-http.ts';
import { itemKeys, sha256 } from './push-records.ts';
import type { PushConnector, PushScope, PushTarget } from './push-target.ts';

// The SiYuan kernel API (protocols/sync.md §5): POST JSON, `Authorization: Token <t>`, answers
// `{ code: 0, msg, data }`. One document per note, under the notebook and the integration's
// folder, marked with the note's id in a block attribute; overwritten when the note changes and
// removed with it. The kernel is usually on the user's own network: it is reached through the
// guarded fetcher, so only where the operator allows it (FETCH_ALLOW_TARGETS).

/** The block attribute naming the Margin note a document is (SiYuan wants the `custom-` prefix). */
export const SIYUAN_NOTE_ATTRIBUTE = 'custom-margin-note-id';

const zSavedSiyuan = z.object({
  kernelUrl: z.string(),
  token: z.string(),
  notebook: z.string(),
  notebookId: z.string(),
});
type SavedSiyuan = z.infer<typeof zSavedSiyuan>;

/** The most of a kernel's own message Margin repeats. */
const KERNEL_MESSAGE_MAX = 200;

/** Control and bidirectional-override characters: never repeated from a kernel's message. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;

/** The kernel's `msg` as plain one-line text, bounded: it is shown to the user. */
function kernelMessage(msg: unknown): string {
  const text = typeof msg === 'string' ? msg : '';
  const line = text.replace(UNSHOWN, ' ').trim();
  return line.length > KERNEL_MESSAGE_MAX ? `${line.slice(0, KERNEL_MESSAGE_MAX)}…` : line;
}

/** The kernel answered, but not with `code: 0`: `kernelMessage` is its own words. */
class SiyuanCodeError extends PushCallError {
  readonly kernelMessage: string;
  constructor(path: string, code: unknown, msg: unknown) {
    const message = kernelMessage(msg);
    super('siyuan', `${path}: code ${String(code)} ${message}`, { reason: PUSH_ERRORS.siyuanKernelFailed });
    this.kernelMessage = message;
  }
}

/** The kernel's base URL (http or https, no query, no trailing slash), else undefined. */
function kernelBase(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search ||
    url.hash ||
    url.username ||
    url.password
  ) {
    return undefined;
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** SQL string literal (ids, and a document path with the note's title: a quote must never end the string). */
const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;

function client(credentials: Pick<SavedSiyuan, 'kernelUrl' | 'token'>, env: PushEnv) {
  /** The kernel's answer to one call; a refused token throws. */
  const send = async (path: string, json: Record<string, unknown>): Promise<ApiReply> => {
    const reply = await callApi(
      'siyuan',
      `${credentials.kernelUrl}${path}`,
      {
        method: 'POST',
        headers: credentials.token ? { authorization: `Token ${credentials.token}` } : {},
        json,
      },
      env,
    );
    if (isAuthStatus(reply.status)) throw new PushRefusedError('siyuan', `HTTP ${reply.status}`);
    return reply;
  };
  /** The `data` of an answer with `code: 0`; any other answer throws. */
  const dataOf = (path: string, reply: ApiReply): unknown => {
    const code = field(reply.body, 'code');
    if (!isSuccessStatus(reply.status) || typeof code !== 'number') {
      // Answered, but not in the kernel's `{code, msg, data}` (another server at the address, a proxy's page).
      throw new PushCallError('siyuan', `${path}: HTTP ${reply.status}`, {
        reason: PUSH_ERRORS.siyuanUnexpectedReply,
      });
    }
    if (code !== 0) throw new SiyuanCodeError(path, code, field(reply.body, 'msg'));
    return field(reply.body, 'data');
  };
  const call = async (path: string, json: Record<string, unknown> = {}): Promise<unknown> =>
    dataOf(path, await send(path, json));
  const firstId = (rows: unknown, column: string): string | undefined => {
    const value = Array.isArray(rows) ? field(rows[0], column) : undefined;
    return typeof value === 'string' && value ? value : undefined;
  };
  const exists = async (docId: string): Promise<boolean> => {
    const stmt = `SELECT id FROM blocks WHERE id = ${sqlText(docId)} LIMIT 1`;
    return firstId(await call('/api/query/sql', { stmt }), 'id') !== undefined;
  };

  return {
    async notebookId(name: string): Promise<string> {
      const notebooks = field(await call('/api/notebook/lsNotebooks'), 'notebooks');
      const found = (Array.isArray(notebooks) ? notebooks : []).find((n) => field(n, 'name') === name);
      const id = field(found, 'id');
      if (typeof id === 'string' && id) {
        if (field(found, 'closed') === true) await call('/api/notebook/openNotebook', { notebook: id });
        return id;
      }
      const created = field(field(await call('/api/notebook/createNotebook', { name }), 'notebook'), 'id');
      if (typeof created !== 'string' || !created)
        throw new PushCallError('siyuan', 'createNotebook: no id', {
          reason: PUSH_ERRORS.siyuanUnexpectedReply,
        });
      return created;
    },
    /** The document marked as `noteId`'s, if the kernel has one (a push whose record was lost). */
    async findDocument(noteId: string): Promise<string | undefined> {
      const stmt = `SELECT block_id FROM attributes WHERE name = ${sqlText(SIYUAN_NOTE_ATTRIBUTE)} AND value = ${sqlText(noteId)} LIMIT 1`;
      return firstId(await call('/api/query/sql', { stmt }), 'block_id');
    },
    /** The new document's id; null when the kernel answered success in words Margin cannot read. */
    async create(notebook: string, path: string, markdown: string): Promise<string | null> {
      const reply = await send('/api/filetree/createDocWithMd', { notebook, path, markdown });
      if (isSuccessStatus(reply.status) && field(reply.body, 'code') === undefined) return null;
      const id = dataOf('/api/filetree/createDocWithMd', reply);
      if (typeof id !== 'string' || !id)
        throw new PushCallError('siyuan', 'createDocWithMd: no id', {
          reason: PUSH_ERRORS.siyuanUnexpectedReply,
        });
      return id;
    },
    /** The newest document at `path` in the notebook that no note has marked: one made whose answer was lost. */
    async findUnmarked(notebook: string, path: string): Promise<string | undefined> {
      const stmt = `SELECT id FROM blocks WHERE type = 'd' AND box = ${sqlText(notebook)} AND hpath = ${sqlText(path)} AND id NOT IN (SELECT block_id FROM attributes WHERE name = ${sqlText(SIYUAN_NOTE_ATTRIBUTE)}) ORDER BY created DESC LIMIT 1`;
      return firstId(await call('/api/query/sql', { stmt }), 'id');
    },
    async mark(docId: string, noteId: string): Promise<void> {
      await call('/api/attr/setBlockAttrs', { id: docId, attrs: { [SIYUAN_NOTE_ATTRIBUTE]: noteId } });
    },
    /** False when the document is gone (removed in SiYuan). */
    async overwrite(docId: string, title: string, markdown: string): Promise<boolean> {
      try {
        await call('/api/block/updateBlock', { id: docId, dataType: 'markdown', data: markdown });
      } catch (error) {
        if (error instanceof SiyuanCodeError && !(await exists(docId))) return false;
        throw error;
      }
      await call('/api/filetree/renameDocByID', { id: docId, title });
      return true;
    },
    async remove(docId: string): Promise<void> {
      try {
        await call('/api/filetree/removeDocByID', { id: docId });
      } catch (error) {
        if (error instanceof SiyuanCodeError && !(await exists(docId))) return;
        throw error;
      }
    },
  };
}

/** The document's path: the folder setting's segments, then the title (a `/` in it is no separator). */
function documentPath(folder: string, title: string, noteId: string): string {
  const segments = folder
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean);
  return `/${[...segments, title.replace(/\//g, '∕').trim() || noteId].join('/')}`;
}

function openSiyuan(credentials: SavedSiyuan, scope: PushScope): PushTarget {
  const api = client(credentials, scope.env);
  const { records } = scope;
  return {
    async pushNote(record) {
      const key = itemKeys.note(record.id);
      const { title, markdown } = await renderNote(
        scope.budget,
        'siyuan',
        scope.templates,
        record,
        scope.render,
      );
      const path = documentPath(scope.folder, title, record.id);
      const hash = sha256(JSON.stringify([path, markdown]));
      const before = await records.get(key);
      if (before?.hash === hash) return 0;
      const known = before?.remoteId ?? (await api.findDocument(record.id));
      if (known && (await api.overwrite(known, title, markdown))) {
        await api.mark(known, record.id);
        await records.put(key, { remoteId: known, hash });
        return 1;
      }
      let docId = await api.create(credentials.notebookId, path, markdown);
      if (!docId) {
        // Made, but the answer did not say its id: recorded first, so a retry never makes it again.
        await records.put(key, { remoteId: null, hash });
        docId = (await api.findUnmarked(credentials.notebookId, path)) ?? null;
        if (!docId) return 1;
      }
      // Recorded before it is marked: a retry then finds it (and marks it), never makes a second one.
      await records.put(key, { remoteId: docId, hash: '' });
      await api.mark(docId, record.id);
      await records.put(key, { remoteId: docId, hash });
      return 1;
    },
    async removeNote(noteId) {
      const key = itemKeys.note(noteId);
      const before = await records.get(key);
      if (!before) return 0;
      if (before.remoteId) await api.remove(before.remoteId);
      await records.remove(key);
      return 1;
    },
  };
}

/** What connecting says when the kernel fails: each way it can fail has its own words. */
function connectError(error: unknown): unknown {
  if (error instanceof PushRefusedError) return new AppError('BAD_REQUEST', 'errors.siyuanTokenInvalid');
  if (error instanceof SiyuanCodeError) {
    return new AppError('BAD_REQUEST', 'errors.siyuanKernelError', { message: error.kernelMessage || '—' });
  }
  if (!(error instanceof PushCallError)) return error;
  if (error.reason === PUSH_ERRORS.siyuanUnexpectedReply) {
    return new AppError('BAD_REQUEST', 'errors.siyuanUnexpectedReply');
  }
  if (error.reason === PUSH_ERRORS.addressRefused)
    return new AppError('BAD_REQUEST', 'errors.pushAddressRefused');
  return new AppError('BAD_REQUEST', 'errors.siyuanUnreachable');
}

export const siyuan: PushConnector<SavedSiyuan> = {
  saved: zSavedSiyuan,
  async connect(input, env) {
    const entered = zSiyuanCredentials.parse(input);
    const kernelUrl = kernelBase(entered.kernelUrl);
    if (!kernelUrl) throw new AppError('BAD_REQUEST', 'errors.urlInvalid');
    const credentials = { kernelUrl, token: entered.token, notebook: entered.notebook };
    try {
      return { ...credentials, notebookId: await client(credentials, env).notebookId(entered.notebook) };
    } catch (error) {
      throw connectError(error);
    }
  },
  destination: (credentials) => `siyuan ${credentials.kernelUrl} ${credentials.notebookId}`,
  open: openSiyuan,
};
