import createClient from 'openapi-fetch';
import type { AppDeps } from '../../server/deps.ts';
import { createApiToken } from '../../server/domain/openapi/api-tokens.ts';
import type { Operation } from '../../server/openapi/operation.ts';
import { CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import type { ApiScope } from '../../src/schemas/api-tokens.ts';
import type { paths } from '../openapi/schema.d.ts';
import { pageFile, postUploadForm } from './extension.ts';
import { type MemberKind, memberUser } from './membership.ts';
import { makeClippedNote } from './notes.ts';
import type { signedInUser } from './users.ts';

export type ApiClient = ReturnType<typeof createClient<paths>>;

/** A typed client of the Open API (generated from its document) acting with `token`. */
export function apiClient(serverUrl: string, token: string, headers: Record<string, string> = {}): ApiClient {
  return createClient<paths>({
    baseUrl: `${serverUrl}/openapi/v1`,
    headers: { Authorization: `Bearer ${token}`, ...headers },
  });
}

/** A signed-in user of a membership (free unless said) with an API token of `scopes` (all three unless said). */
export async function apiUser(
  deps: AppDeps,
  scopes: ApiScope[] = ['read', 'write', 'daily'],
  kind: MemberKind = 'free',
) {
  const user = await memberUser(deps, kind);
  const { token: apiToken } = await createApiToken(deps.orm.em.fork(), deps.config, user.user, {
    name: 'test',
    scopes,
    expiresInDays: null,
  });
  return { ...user, apiToken };
}

/** An Open API call's status and envelope, sent with `headers` (a token, the extension's client). */
export async function callOpenApi(
  serverUrl: string,
  headers: Record<string, string>,
  method: string,
  route: string,
  body?: unknown,
) {
  const response = await fetch(`${serverUrl}/openapi/v1${route}`, {
    // fetch sends `patch` as it is written, which no server takes for PATCH.
    method: method.toUpperCase(),
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return {
    status: response.status,
    // biome-ignore lint/suspicious/noExplicitAny: each test asserts the shape of the data it reads
    body: (await response.json()) as { code: number; message: string; data: any },
  };
}

const FIXTURE_TEXT = 'Reading is a conversation. All books talk. But a good book listens as well.';

/** What a user has for sample requests to name: a clipped note with a highlight, and a folder. */
export async function apiFixture(
  deps: AppDeps,
  signedIn: Pick<Awaited<ReturnType<typeof signedInUser>>, 'user' | 'caller'>,
) {
  const note = await makeClippedNote(deps, signedIn.user.id, { title: 'Walked', text: FIXTURE_TEXT });
  const highlight = await signedIn.caller.highlights.create({
    id: newId(),
    noteId: note.id,
    coreType: CoreType.textNote,
    text: 'A note on the page',
  });
  const folder = await signedIn.caller.folders.create({ name: `Folder ${newId()}` });
  return { noteId: note.id, noteUrl: note.url, highlightId: highlight.id, folderId: folder.id };
}
export type ApiFixture = Awaited<ReturnType<typeof apiFixture>>;

export interface SampleRequest {
  /** Under /openapi/v1, with its query. */
  route: string;
  body?: unknown;
}
interface SampleContext {
  fixture: ApiFixture;
  /** Calls the API as the sample will be sent, for what has to exist first (an upload). */
  call: (method: string, route: string, body?: unknown) => ReturnType<typeof callOpenApi>;
}

const freshUrl = () => `https://pages.example/${newId()}`;

/**
 * Per operationId, a request the operation answers with success for the user of `fixture`. A test
 * walking the operations checks that each has one, so a new operation is walked from the day it
 * is added.
 */
export const SAMPLE_REQUESTS: Record<string, (context: SampleContext) => Promise<SampleRequest>> = {
  listNotes: async () => ({ route: '/notes' }),
  createNote: async () => ({
    route: '/notes',
    body: { url: freshUrl(), html: `<article><h1>Sent</h1><p>${FIXTURE_TEXT}</p></article>` },
  }),
  getNote: async ({ fixture }) => ({ route: `/notes/${fixture.noteId}` }),
  updateNote: async ({ fixture }) => ({ route: `/notes/${fixture.noteId}`, body: { tags: ['walked'] } }),
  trashNote: async ({ fixture }) => ({ route: `/notes/${fixture.noteId}/trash` }),
  restoreNote: async ({ fixture }) => ({ route: `/notes/${fixture.noteId}/restore` }),
  deleteNote: async ({ fixture }) => ({ route: `/notes/${fixture.noteId}` }),
  exportNote: async ({ fixture }) => ({ route: `/notes/${fixture.noteId}/export?format=text` }),
  listHighlights: async () => ({ route: '/highlights' }),
  createHighlight: async ({ fixture }) => ({
    route: '/highlights',
    body: { noteId: fixture.noteId, coreType: CoreType.highlight, quote: 'All books talk.' },
  }),
  getHighlight: async ({ fixture }) => ({ route: `/highlights/${fixture.highlightId}` }),
  updateHighlight: async ({ fixture }) => ({
    route: `/highlights/${fixture.highlightId}`,
    body: { slotId: 2 },
  }),
  deleteHighlight: async ({ fixture }) => ({ route: `/highlights/${fixture.highlightId}` }),
  listTags: async () => ({ route: '/tags' }),
  listFolders: async () => ({ route: '/folders' }),
  createFolder: async () => ({ route: '/folders', body: { name: `Made ${newId()}` } }),
  renameFolder: async ({ fixture }) => ({
    route: `/folders/${fixture.folderId}`,
    body: { name: `Renamed ${newId()}` },
  }),
  deleteFolder: async ({ fixture }) => ({ route: `/folders/${fixture.folderId}` }),
  getDailyNote: async () => ({ route: '/daily/today' }),
  writeDailyNote: async () => ({ route: '/daily', body: { text: 'Written through the API' } }),
  appendToToday: async () => ({ route: '/daily/today/append', body: { text: 'Appended' } }),
  getExtensionSettings: async () => ({ route: '/extension/settings' }),
  getExtensionPage: async ({ fixture }) => ({
    route: `/extension/page?url=${encodeURIComponent(fixture.noteUrl)}`,
  }),
  createUploadPolicy: async () => ({ route: '/extension/uploads', body: { url: freshUrl() } }),
  completeUpload: async ({ call }) => {
    const url = freshUrl();
    const policy = await call('POST', '/extension/uploads', { url });
    const upload = await postUploadForm(policy.body.data, pageFile(url, `<p>${FIXTURE_TEXT}</p>`));
    if (upload.status !== 200) throw new Error(`upload answered ${upload.status}`);
    return { route: '/extension/uploads/complete', body: { key: policy.body.data.key } };
  },
  savePageByUrl: async () => ({ route: '/extension/notes', body: { url: freshUrl() } }),
};

/** The operation's sample request for the user of `fixture`, made ready (an upload first) with `headers`. */
export function sampleRequest(
  op: Operation,
  serverUrl: string,
  headers: Record<string, string>,
  fixture: ApiFixture,
): Promise<SampleRequest> {
  const sample = SAMPLE_REQUESTS[op.operationId];
  if (!sample) throw new Error(`no sample request for ${op.operationId}`);
  return sample({
    fixture,
    call: (method, route, body) => callOpenApi(serverUrl, headers, method, route, body),
  });
}
