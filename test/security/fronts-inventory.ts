// What the security suite knows about the fronts besides tRPC: the Open API's operations (the
// real list, with a valid sample request for each, typed against the generated document so an
// operation without one fails the type check), the sync routes (found by walking the Express
// router, so a new route is found the day it is added), the users and tokens that probe them,
// and a runner that sends probes with bounded concurrency and checks that no refused probe
// changed a row.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Router } from 'express';
import { expect } from 'vitest';
import type { AppDeps } from '../../server/deps.ts';
import { createApiToken, revokeApiToken } from '../../server/domain/openapi/api-tokens.ts';
import { createSyncToken, revokeSyncToken } from '../../server/domain/sync/tokens.ts';
import { CoreType, Flow, HighlightStyle } from '../../src/enums.ts';
import { newDeviceCode } from '../../src/rules/device-flow.ts';
import { newId } from '../../src/rules/id.ts';
import { EXTENSION_CLIENT_HEADER, EXTENSION_VERSION } from '../../src/schemas/extension.ts';
import { ALWAYS_OPEN_FEATURES, FEATURES } from '../../src/schemas/membership.ts';
import { PULL_SERVICE_IDS } from '../../src/schemas/sync.ts';
import { pageFile, postUploadForm } from '../helpers/extension.ts';
import { type MemberKind, setMembership } from '../helpers/membership.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import type { operations } from '../openapi/schema.d.ts';
import type { BadInputClass } from './bad-inputs.ts';
import { queryValue } from './malformed-urls.ts';
import { fingerprint, makeFixtures } from './router-inventory.ts';

// ---- HTTP ------------------------------------------------------------------------------------

export interface Probe {
  method: string;
  /** Already encoded, with its query. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Answer {
  status: number;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: each front's checks read the envelope they expect
  json: any;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Sends a probe over a socket of its own and answers what the server said. A server may answer
 * before it has read the whole body (a refusal): the answer counts, a write it cut short does not.
 */
export function send(serverUrl: string, probe: Probe): Promise<Answer> {
  const { hostname, port } = new URL(serverUrl);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      {
        host: hostname,
        port,
        method: probe.method,
        path: probe.path,
        agent: false,
        headers: {
          ...probe.headers,
          ...(probe.body !== undefined && { 'content-length': Buffer.byteLength(probe.body) }),
        },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, text, json: parsed(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.end(probe.body);
  });
}

/**
 * Sends a probe's headers and only the first `sentBytes` of a body declared `declaredBytes` long,
 * and answers what the server says with the rest still unsent: a server that reads the body
 * before it checks the token never answers, and `withinMs` only turns that hang into a failure.
 */
export function answerBeforeBody(
  serverUrl: string,
  probe: Omit<Probe, 'body'>,
  declaredBytes: number,
  sentBytes: number,
  withinMs: number,
): Promise<Answer | 'no answer before the body'> {
  const { hostname, port } = new URL(serverUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: hostname,
      port,
      method: probe.method,
      path: probe.path,
      agent: false,
      headers: { ...probe.headers, 'content-type': 'application/json', 'content-length': declaredBytes },
    });
    const bound = setTimeout(() => {
      req.destroy();
      resolve('no answer before the body');
    }, withinMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(bound);
        const text = Buffer.concat(chunks).toString('utf8');
        req.destroy();
        resolve({ status: res.statusCode ?? 0, text, json: parsed(text) });
      });
    });
    req.on('error', (error) => {
      clearTimeout(bound);
      reject(error);
    });
    const head = '{"padding":"';
    req.write(head + 'a'.repeat(Math.max(sentBytes - head.length, 0)));
  });
}

/** A JSON body of about `bytes` bytes. */
export const bodyOfSize = (bytes: number) => JSON.stringify({ padding: 'a'.repeat(bytes) });

/** A query string of `values` (arrays repeat the name), written as a client writes each value. */
function queryString(values: Record<string, unknown> | undefined): string {
  const parts = Object.entries(values ?? {}).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => `${name}=${queryValue(String(v))}`),
  );
  return parts.length ? `?${parts.join('&')}` : '';
}

// ---- Probes and the runner ---------------------------------------------------------------------

/** What a probe tests, for the counts the closing note reports. */
export type ProbeClass =
  | 'no token'
  | 'malformed token'
  | "another kind's token"
  | 'plan without the feature'
  | "another user's ids"
  | BadInputClass
  | 'malformed JSON'
  | 'oversize body'
  | 'oversize body before auth';

export interface SentProbe {
  /** The operation or route it is sent to. */
  target: string;
  kind: ProbeClass;
  /** Where and how it differs from the sample, for a failure's message. */
  what: string;
  request: Probe;
  /** Why the answer is wrong, or null when it is right. Every answer must also be below 500. */
  check(answer: Answer): string | null;
  /** A variant a field may accept after all (a megabyte of HTML): it may change rows if it is served. */
  mayBeValid?: boolean;
}

/** How many probes each class sent and what they were answered, per front. */
export class Tally {
  readonly byClass = new Map<string, number>();
  readonly outcomes = new Map<string, number>();
  targets = 0;
  private readonly outcomeOf: (answer: Answer) => string;

  /** `outcomeOf` names an answer in the counts: its HTTP status unless the front says otherwise. */
  constructor(outcomeOf: (answer: Answer) => string = (a) => String(a.status)) {
    this.outcomeOf = outcomeOf;
  }

  count(kind: string, answer: Answer) {
    const outcome = this.outcomeOf(answer);
    this.byClass.set(kind, (this.byClass.get(kind) ?? 0) + 1);
    this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + 1);
  }

  report(front: string, unit: string): string {
    const total = [...this.byClass.values()].reduce((a, b) => a + b, 0);
    const lines = [...this.byClass].map(([kind, n]) => `  ${kind}: ${n}`).join('\n');
    const outcomes = [...this.outcomes].sort(([a], [b]) => a.localeCompare(b)).map(([o, n]) => `${o}×${n}`);
    return `${front}: ${this.targets} ${unit}, ${total} probes\n${lines}\n  answers: ${outcomes.join(' ')}`;
  }
}

/** Runs `run` on every item, at most `limit` at once. */
export async function eachLimited<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Probes sent at once: enough to overlap the database's round trips on two cores, no more. */
const CONCURRENCY = 6;

/** What only an internal error would put in an answer: a stack, a path, SQL, a database's words. */
const INTERNALS =
  /\n\s+at |node_modules|\.ts:\d+|\bselect \S+ from\b|\binsert into\b|syntax error at|out of range for type|\bxid8\b/i;

/**
 * Sends the probes, each group (one target and class) at once and the groups in turn, with a
 * fingerprint of every table before and after each group: none may answer 5xx or leak internals,
 * each must pass its check, and a group of refusals must leave every row as it was. Answers the
 * failures, one line each, so a test shows them all at once.
 */
export async function runProbes(
  deps: AppDeps,
  serverUrl: string,
  probes: readonly SentProbe[],
  tally: Tally,
): Promise<string[]> {
  const failures: string[] = [];
  const judge = (probe: SentProbe, answer: Answer) => {
    tally.count(probe.kind, answer);
    const label = `${probe.target} ${probe.kind} (${probe.what}) → ${answer.status} ${answer.text.slice(0, 160)}`;
    if (answer.status >= 500) failures.push(`5xx: ${label}`);
    else if (INTERNALS.test(answer.text)) failures.push(`internals in the answer: ${label}`);
    else {
      const wrong = probe.check(answer);
      if (wrong) failures.push(`${wrong}: ${label}`);
    }
    return answer;
  };
  const groups = new Map<string, SentProbe[]>();
  for (const probe of probes.filter((p) => !p.mayBeValid)) {
    const key = `${probe.target} ${probe.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), probe]);
  }
  for (const [key, group] of groups) {
    const before = await fingerprint(deps);
    await eachLimited(group, CONCURRENCY, async (probe) => {
      judge(probe, await send(serverUrl, probe.request).catch(socketFailure));
    });
    const after = await fingerprint(deps);
    if (!sameRows(before, after))
      failures.push(`rows changed by refusals: ${key}: ${changedTables(before, after)}`);
  }
  for (const probe of probes.filter((p) => p.mayBeValid)) {
    const before = await fingerprint(deps);
    const answer = judge(probe, await send(serverUrl, probe.request).catch(socketFailure));
    const after = await fingerprint(deps);
    if (answer.status >= 400 && !sameRows(before, after)) {
      failures.push(`rows changed by a refusal: ${probe.target} ${probe.kind} (${probe.what})`);
    }
  }
  return failures;
}

/** A probe whose input a field may take after all: served is right too, and may change rows. */
export const mayBeServed = (probe: SentProbe): SentProbe => ({
  ...probe,
  mayBeValid: true,
  check: (answer) => (answer.status >= 200 && answer.status < 300 ? null : probe.check(answer)),
});

/** A socket the server closed without an answer reads as a status no check accepts. */
const socketFailure = (error: NodeJS.ErrnoException): Answer => ({
  status: 0,
  text: `no answer: ${error.code ?? error.message}`,
  json: null,
});

const sameRows = (a: Record<string, string>, b: Record<string, string>) =>
  JSON.stringify(a) === JSON.stringify(b);
const changedTables = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys({ ...a, ...b })
    .filter((t) => a[t] !== b[t])
    .join(', ');

/** Fails with every failure listed, or passes. */
export function expectNoFailures(failures: readonly string[]) {
  expect(failures.slice(0, 40), `${failures.length} failing probes`).toEqual([]);
}

// ---- Who probes ------------------------------------------------------------------------------

/**
 * A membership table whose every level may call the API as often as the suite does (thousands of
 * probes a minute per token); the features are the default table's.
 */
export function generousMembershipConfig(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'margin-fronts-'));
  const file = path.join(dir, 'membership.json');
  const quotas = { apiRequestsPerMinute: 100_000, apiTokens: 100, webhookEndpoints: 50 };
  const plans = {
    free: { features: ALWAYS_OPEN_FEATURES, quotas },
    pro: { features: FEATURES, quotas },
    superPro: { features: FEATURES, quotas },
  };
  writeFileSync(file, JSON.stringify({ plans }));
  return file;
}

/** Every kind of credential a user can hold, live and dead. */
interface Credentials {
  /** The session cookie's value. */
  session: string;
  /** An Open API token with every scope. */
  api: string;
  revokedApi: string;
  /** Sync tokens of two note tools, the browser extension's, and a revoked one. */
  obsidian: string;
  logseq: string;
  extension: string;
  revokedSync: string;
}

/** A user whose rows carry `marker` (in titles, texts, names and tags), with every credential. */
export async function frontUser(deps: AppDeps, marker: string, member: MemberKind = 'pro') {
  const base = await makeFixtures(deps, marker, 'pro');
  const { user, caller, fx } = base;
  const em = () => deps.orm.em.fork();
  // A second note in the folder, with the tag and the marker, so a list sample has a next page.
  const second = await makeClippedNote(deps, user.id, {
    title: `${marker} second note`,
    text: `${marker} second note text`,
    tags: [fx.tag],
  });
  await caller.notes.moveToFolder({ ids: [second.id], folderId: fx.folderId });
  // Two text notes of one colour and tag on the first note (makeFixtures moved its highlight to a day).
  const highlights = [];
  for (const n of [1, 2]) {
    highlights.push(
      await caller.highlights.create({
        id: newId(),
        noteId: fx.noteId,
        coreType: CoreType.textNote,
        text: `${marker} passage ${n}`,
        slotId: 2,
        tags: [fx.tag],
      }),
    );
  }
  const scopes = ['read', 'write', 'daily'] as const;
  const api = await createApiToken(em(), deps.config, user, {
    name: 'probes',
    scopes: [...scopes],
    expiresInDays: null,
  });
  const revokedApi = await createApiToken(em(), deps.config, user, {
    name: 'revoked',
    scopes: [...scopes],
    expiresInDays: null,
  });
  await revokeApiToken(em(), user, { id: revokedApi.view.id });
  const sync = (app: 'obsidian' | 'logseq' | 'extension') => createSyncToken(em(), user, { app });
  const revokedSync = await sync('obsidian');
  await revokeSyncToken(em(), user, { id: revokedSync.view.id });
  const credentials: Credentials = {
    session: base.token,
    api: api.token,
    revokedApi: revokedApi.token,
    obsidian: (await sync('obsidian')).token,
    logseq: (await sync('logseq')).token,
    extension: (await sync('extension')).token,
    revokedSync: revokedSync.token,
  };
  if (member !== 'pro') await setMembership(deps, user.id, member);
  const note = await caller.notes.get({ id: fx.noteId });
  return {
    ...base,
    marker,
    credentials,
    rows: {
      ...fx,
      noteUrl: note.url,
      secondNoteId: second.id,
      passageIds: highlights.map((h) => h.id) as [string, string],
    },
  };
}
export type FrontUser = Awaited<ReturnType<typeof frontUser>>;

/** What must never appear in an answer to another user: the owner's marker and email. */
export const secretsOf = (owner: FrontUser) => [owner.marker, owner.rows.email];

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
/** The headers the browser extension sends with its token. */
export const extensionHeaders = (token: string) => ({
  ...bearer(token),
  [EXTENSION_CLIENT_HEADER]: `chrome/${EXTENSION_VERSION}`,
});

/** Authorization headers no server issued, and one that is no bearer at all. */
export const MALFORMED_AUTHORIZATIONS: readonly string[] = [
  'Bearer',
  'Bearer ',
  'Bearer not-a-token',
  `Bearer mapi_${'x'.repeat(43)}`,
  `Bearer msync_${'x'.repeat(43)}`,
  `Bearer ${'x'.repeat(5000)}`,
  'Bearer mapi_a mapi_b',
  'Basic dXNlcjpwYXNz',
  'Token',
  '\u00e9\u00e9\u00e9',
];

// ---- The Open API ----------------------------------------------------------------------------

type OperationId = keyof operations;
type PathOf<K extends OperationId> = operations[K]['parameters']['path'];
type QueryOf<K extends OperationId> = NonNullable<operations[K]['parameters']['query']>;
type RequestBodyOf<K extends OperationId> = NonNullable<operations[K]['requestBody']>;
type BodyOf<K extends OperationId> = [RequestBodyOf<K>] extends [never]
  ? never
  : RequestBodyOf<K> extends { content: { 'application/json': infer B } }
    ? B
    : never;

/** A request of operation K: its path parameters, every query parameter, and its body. */
type RestSample<K extends OperationId> = ([PathOf<K>] extends [undefined]
  ? { path?: undefined }
  : { path: NonNullable<PathOf<K>> }) &
  ([QueryOf<K>] extends [never] ? { query?: undefined } : { query: Required<QueryOf<K>> }) &
  ([BodyOf<K>] extends [never] ? { body?: undefined } : { body: BodyOf<K> });

interface RestSampleContext {
  owner: FrontUser;
  /** Calls the API as the owner, for what a sample needs first (an upload, a first page). */
  call(method: string, route: string, body?: unknown): Promise<Answer>;
}

const freshUrl = () => `https://pages.example/${newId()}`;

/**
 * Per operation, a request it serves for the owner, every field filled: each field is then
 * spoiled in turn, so a field left out would go unprobed.
 */
export const REST_SAMPLES: { [K in OperationId]: (ctx: RestSampleContext) => Promise<RestSample<K>> } = {
  listNotes: async ({ owner, call }) => {
    const { rows } = owner;
    const query = { nav: 'all', tag: rows.tag, folderId: rows.folderId, q: owner.marker, limit: 1 } as const;
    const first = await call('GET', `/notes${queryString(query)}`);
    return { query: { ...query, cursor: first.json.data.next_cursor } };
  },
  createNote: async ({ owner }) => ({
    body: { url: freshUrl(), html: `<article><h1>Sent</h1><p>${owner.marker} sent text</p></article>` },
  }),
  getNote: async ({ owner }) => ({ path: { id: owner.rows.noteId } }),
  updateNote: async ({ owner }) => ({
    path: { id: owner.rows.noteId },
    body: { flow: Flow.later, tags: [owner.rows.tag, 'probed'], folderId: owner.rows.folderId },
  }),
  trashNote: async ({ owner }) => ({ path: { id: owner.rows.noteId } }),
  restoreNote: async ({ owner }) => ({ path: { id: owner.rows.noteId } }),
  deleteNote: async ({ owner }) => ({ path: { id: owner.rows.noteId } }),
  exportNote: async ({ owner }) => ({ path: { id: owner.rows.noteId }, query: { format: 'text' } }),
  listHighlights: async ({ owner, call }) => {
    const { rows } = owner;
    const query = { noteId: rows.noteId, q: owner.marker, slotId: 2, tag: rows.tag, limit: 1 };
    const first = await call('GET', `/highlights${queryString(query)}`);
    return { query: { ...query, cursor: first.json.data.next_cursor } };
  },
  createHighlight: async ({ owner }) => ({
    body: {
      id: newId(),
      noteId: owner.rows.noteId,
      coreType: CoreType.highlight,
      quote: 'note text',
      slotId: 3,
      style: HighlightStyle.underline,
      annotation: 'Probed',
      tags: [owner.rows.tag],
    },
  }),
  getHighlight: async ({ owner }) => ({ path: { id: owner.rows.passageIds[0] } }),
  updateHighlight: async ({ owner }) => ({
    path: { id: owner.rows.passageIds[0] },
    body: { slotId: 4, style: HighlightStyle.bold, text: 'Changed', annotation: 'Probed', tags: ['probed'] },
  }),
  deleteHighlight: async ({ owner }) => ({ path: { id: owner.rows.passageIds[0] } }),
  listTags: async () => ({}),
  listFolders: async () => ({}),
  createFolder: async ({ owner }) => ({ body: { name: `Made ${newId()}`, parentId: owner.rows.folderId } }),
  renameFolder: async ({ owner }) => ({
    path: { id: owner.rows.folderId },
    body: { name: `Renamed ${newId()}` },
  }),
  deleteFolder: async ({ owner }) => ({ path: { id: owner.rows.folderId } }),
  getDailyNote: async ({ owner }) => ({ path: { day: owner.rows.day } }),
  writeDailyNote: async ({ owner }) => ({ body: { date: owner.rows.day, text: 'Written by a probe' } }),
  appendToToday: async () => ({ body: { text: 'Appended by a probe' } }),
  getExtensionSettings: async () => ({}),
  getExtensionPage: async ({ owner }) => ({ query: { url: owner.rows.noteUrl } }),
  createUploadPolicy: async () => ({ body: { url: freshUrl(), title: 'Uploaded page' } }),
  completeUpload: async ({ owner, call }) => {
    const url = freshUrl();
    const policy = await call('POST', '/extension/uploads', { url });
    const upload = await postUploadForm(policy.json.data, pageFile(url, `<p>${owner.marker} uploaded</p>`));
    if (upload.status !== 200) throw new Error(`upload answered ${upload.status}`);
    return { body: { key: policy.json.data.key } };
  },
  savePageByUrl: async () => ({ body: { url: freshUrl() } }),
};

/** Any operation's sample, as the runner handles it. */
export interface AnySample {
  path?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export function restSample(operationId: string, ctx: RestSampleContext): Promise<AnySample> {
  const build = (REST_SAMPLES as unknown as Record<string, (ctx: RestSampleContext) => Promise<AnySample>>)[
    operationId
  ];
  if (!build) throw new Error(`no sample request for ${operationId}`);
  return build(ctx);
}

/** The HTTP request of an operation's sample under /openapi/v1, sent with `headers`. */
export function restRequest(
  op: { method: string; path: string },
  sample: AnySample,
  headers: Record<string, string>,
  body: string | undefined = sample.body === undefined ? undefined : JSON.stringify(sample.body),
): Probe {
  const route = op.path.replace(/\{(\w+)\}/g, (_, name: string) => queryValue(String(sample.path?.[name])));
  return {
    method: op.method.toUpperCase(),
    path: `/openapi/v1${route}${queryString(sample.query)}`,
    headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body,
  };
}

// ---- The sync fronts -------------------------------------------------------------------------

export interface RouteInfo {
  method: string;
  path: string;
}

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  rawPath?: unknown;
  handle: { stack?: RouterLayer[] };
}

/** Every route of an Express router and the routers mounted in it, with the paths they are mounted at. */
export function expressRoutes(router: Router, prefix = ''): RouteInfo[] {
  return (router as unknown as { stack: RouterLayer[] }).stack.flatMap((layer): RouteInfo[] => {
    if (layer.route) {
      const route = layer.route;
      return Object.keys(route.methods).map((m) => ({
        method: m.toUpperCase(),
        path: `${prefix}${route.path}`,
      }));
    }
    if (!layer.handle.stack) return [];
    const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
    return expressRoutes(layer.handle as unknown as Router, `${prefix}${mount}`);
  });
}

const b64 = (text: string) => Buffer.from(text).toString('base64url');

/**
 * Sync cursors forged on an integration's own id, each field out of its range: past xid8 and
 * bigint, negative, not a number, a generation or integration past any id.
 */
export function forgedSyncCursors(integrationId: number): string[] {
  const at = (body: string, generation = '0') => `${integrationId}.${generation}.${b64(body)}`;
  return [
    at('c|99999999999999999999|1'),
    at('c|18446744073709551616|1'),
    at('c|1|9223372036854775808'),
    at('c|-1|1'),
    at('c|1e20|1'),
    at('c|NaN|1'),
    at('f|abcdefgh12345678|99999999999999999999'),
    at('f|abcdefgh12345678|-1'),
    at('c|1|1', '99999999999999999999'),
    at('c|1|1', '-1'),
    `99999999999999999999.0.${b64('c|1|1')}`,
    `${integrationId}.0.${b64('c|1|1|1')}`,
  ];
}

export const randomClientId = () => `c_${randomBytes(8).toString('hex')}`;

/** A call of a sync route: the plugin's headers and query (the seed's), and its JSON body. */
export interface SyncSample {
  headers: Record<string, string>;
  query?: Record<string, string>;
  body: unknown;
}

/** The clients the owner syncs with: Logseq on /api/sync/v1, Obsidian on the seed's paths. */
export interface SyncClients {
  v1: string;
  seed: string;
}

export interface SyncSampleContext {
  owner: FrontUser;
  clients: SyncClients;
  /** Calls a route as the owner, for what a sample needs first (a run's cursor). */
  call(route: string, sample: SyncSample): Promise<Answer>;
}

/** The seed plugins' query on every call. */
const SEED_QUERY = { appid: '20', ep: 'obsidianwucai', version: '1.0.0', reqtime: '1773480600' };
const SEED_APP = { serviceId: PULL_SERVICE_IDS.obsidian, v: '1.0.0' };

const v1Headers = (ctx: SyncSampleContext) => bearer(ctx.owner.credentials.logseq);
const seedHeaders = (ctx: SyncSampleContext) => ({
  Authorization: `Token ${ctx.owner.credentials.obsidian}`,
  'Obsidian-Client': ctx.clients.seed,
});

/** A cursor of the owner's Logseq integration, from a run begun on /api/sync/v1. */
async function v1Cursor(ctx: SyncSampleContext): Promise<string> {
  const headers = v1Headers(ctx);
  const clientId = ctx.clients.v1;
  await ctx.call('/api/sync/v1/init', { headers, body: { clientId } });
  const first = await ctx.call('/api/sync/v1/download', { headers, body: { clientId, cursor: null } });
  return first.json.cursor;
}

/** A cursor of the owner's Obsidian integration, from a run begun on the seed's paths. */
async function seedCursor(ctx: SyncSampleContext): Promise<string> {
  const sample = { headers: seedHeaders(ctx), query: SEED_QUERY };
  await ctx.call('/apix/openapi/wucai/sync/init', { ...sample, body: SEED_APP });
  const first = await ctx.call('/apix/openapi/wucai/sync/download', { ...sample, body: SEED_APP });
  return first.json.data.lastCursor2;
}

/**
 * Per sync route (as `METHOD path`), a call it serves for the owner, every field filled. The
 * routes are found by walking the router, and a test checks each has a sample here.
 */
export const SYNC_SAMPLES: Record<string, (ctx: SyncSampleContext) => Promise<SyncSample>> = {
  'POST /api/sync/v1/token': async () => ({
    headers: {},
    body: { clientId: randomClientId(), userCode: newDeviceCode() },
  }),
  'POST /api/sync/v1/init': async (ctx) => ({
    headers: v1Headers(ctx),
    body: { clientId: ctx.clients.v1, fromStart: false },
  }),
  'POST /api/sync/v1/download': async (ctx) => ({
    headers: v1Headers(ctx),
    body: { clientId: ctx.clients.v1, cursor: await v1Cursor(ctx), noteIds: [ctx.owner.rows.noteId] },
  }),
  'POST /api/sync/v1/ack': async (ctx) => ({
    headers: v1Headers(ctx),
    body: { clientId: ctx.clients.v1, cursor: await v1Cursor(ctx) },
  }),
  'POST /api/sync/v1/archive': async (ctx) => ({
    headers: v1Headers(ctx),
    body: { noteId: ctx.owner.rows.noteId },
  }),
  'POST /api/sync/v1/delete': async (ctx) => ({
    headers: v1Headers(ctx),
    body: { noteId: ctx.owner.rows.noteId },
  }),
  'POST /apix/openapi/wucai/sync/init': async (ctx) => ({
    headers: seedHeaders(ctx),
    query: SEED_QUERY,
    body: { ...SEED_APP, noteDirDeleted: false, lastCursor2: await seedCursor(ctx) },
  }),
  'POST /apix/openapi/wucai/sync/download': async (ctx) => ({
    headers: seedHeaders(ctx),
    query: SEED_QUERY,
    body: {
      ...SEED_APP,
      lastCursor2: await seedCursor(ctx),
      noteIdXs: [ctx.owner.rows.noteId],
      checkUpdate: false,
    },
  }),
  'POST /apix/openapi/wucai/sync/ack': async (ctx) => ({
    headers: seedHeaders(ctx),
    query: SEED_QUERY,
    body: { ...SEED_APP, lastCursor2: await seedCursor(ctx) },
  }),
  'POST /apix/openapi/wucai/sync/archive': async (ctx) => ({
    headers: seedHeaders(ctx),
    query: SEED_QUERY,
    body: { ...SEED_APP, noteid: ctx.owner.rows.noteId },
  }),
  'POST /apix/openapi/wucai/sync/delete': async (ctx) => ({
    headers: seedHeaders(ctx),
    query: SEED_QUERY,
    body: { ...SEED_APP, noteid: ctx.owner.rows.noteId },
  }),
  'POST /page/auth/openapi/gettoken': async () => ({
    headers: {},
    query: SEED_QUERY,
    body: { did: randomClientId() },
  }),
};

/** The routes that take no token: the device flow's polls. */
export const PUBLIC_SYNC_ROUTES = new Set(['POST /api/sync/v1/token', 'POST /page/auth/openapi/gettoken']);

/** The HTTP request of a sync call. */
export function syncRequest(
  route: RouteInfo,
  sample: Pick<SyncSample, 'query'> & { headers: Record<string, string> },
  body: string | undefined,
): Probe {
  return {
    method: route.method,
    path: `${route.path}${queryString(sample.query)}`,
    headers: { ...sample.headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body,
  };
}
