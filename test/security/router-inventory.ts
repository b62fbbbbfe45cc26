// What the security suite knows about the API: every procedure of the real router (found by
// walking it, so a new procedure is covered the day it is added), a valid input for each
// (typed against the router, so a procedure without one fails the type check), an HTTP caller
// and a fingerprint of every table.
import http from 'node:http';
import type { inferRouterInputs } from '@trpc/server';
import type { Express } from 'express';
import superjson from 'superjson';
import request from 'supertest';
import type { z } from 'zod';
import { Order } from '../../server/db/entities/index.ts';
import type { AppDeps } from '../../server/deps.ts';
import { createTicket } from '../../server/domain/auth/qr.service.ts';
import { newOrderId } from '../../server/domain/membership/orders.ts';
import { type AppRouter, appRouter } from '../../server/trpc/app.router.ts';
import { CoreType, Flow, SortOrder } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { type MemberKind, memberUser } from '../helpers/membership.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';

export type ProcedureType = 'query' | 'mutation';

export interface ProcedureInfo {
  path: string;
  type: ProcedureType;
  input: z.ZodType | null;
}

interface RouterInternals {
  _def: { procedures: Record<string, { _def: { type: string; inputs: z.ZodType[] } }> };
}

/** Every procedure of the app router, in declaration order. */
export const PROCEDURES: ProcedureInfo[] = Object.entries(
  (appRouter as unknown as RouterInternals)._def.procedures,
).map(([path, procedure]) => ({
  path,
  type: procedure._def.type as ProcedureType,
  input: procedure._def.inputs[0] ?? null,
}));

/** Callable without a session: everything else must answer 401 to strangers. */
export const PUBLIC_PROCEDURES = new Set([
  'system.info',
  'auth.providers',
  'auth.me',
  'auth.sendCode',
  'auth.register',
  'auth.login',
  'auth.resetPassword',
  'auth.qrCreate',
  'auth.qrPoll',
]);

/** The rows a user owns that inputs refer to. */
export interface Fixtures {
  email: string;
  noteId: string;
  highlightId: string;
  folderId: string;
  tag: string;
  day: string;
  dailyMoveId: string;
  ticketId: string;
  ticketSecret: string;
  syncTokenId: number;
  apiTokenId: number;
  webhookEndpointId: string;
  orderId: string;
}

/** Ids in a fixture set that belong to its user: a second user must never reach them. */
export const ownedIds = (fx: Fixtures) => [
  fx.noteId,
  fx.highlightId,
  fx.folderId,
  fx.dailyMoveId,
  fx.webhookEndpointId,
  fx.orderId,
];

type Inputs = inferRouterInputs<AppRouter>;
type Samples = {
  [R in keyof Inputs]: { [P in keyof Inputs[R]]: (fx: Fixtures) => Inputs[R][P] };
};

const password = 'Correct-horse-9';

/** A valid input for every procedure, built from a user's fixtures. */
const SAMPLES: Samples = {
  system: { info: () => undefined },
  auth: {
    providers: () => undefined,
    me: () => undefined,
    sendCode: (fx) => ({ email: fx.email, purpose: 'reset' }),
    register: (fx) => ({ email: fx.email, code: '123456', password, repeatPassword: password }),
    login: (fx) => ({ email: fx.email, password }),
    logout: () => undefined,
    logoutEverywhere: () => undefined,
    resetPassword: (fx) => ({ email: fx.email, code: '123456', password, repeatPassword: password }),
    qrCreate: () => undefined,
    qrPoll: (fx) => ({ ticketId: fx.ticketId, secret: fx.ticketSecret }),
    qrScan: (fx) => ({ ticketId: fx.ticketId }),
    qrDecide: (fx) => ({ ticketId: fx.ticketId, approve: false }),
  },
  account: {
    updateProfile: () => ({ nickname: 'Reader' }),
    setLanguage: () => ({ language: 'fr' }),
    setTimeZone: () => ({ timeZone: 'Europe/Paris' }),
    changePassword: () => ({ oldPassword: password, password, repeatPassword: password }),
    sendBindCode: (fx) => ({ email: `bind-${fx.email}` }),
    bindEmail: (fx) => ({ email: `bind-${fx.email}`, code: '123456' }),
    unbindEmail: () => undefined,
    bindings: () => undefined,
    unbindProvider: () => ({ provider: 'google' }),
    sendDeleteCode: () => undefined,
    delete: () => ({ password }),
  },
  notes: {
    clip: () => ({ url: 'https://example.test/article' }),
    clipHtml: () => ({
      url: 'https://example.test/sent',
      html: '<html><body><p>Sent page</p></body></html>',
    }),
    retryClip: (fx) => ({ id: fx.noteId }),
    get: (fx) => ({ id: fx.noteId }),
    saveProgress: (fx) => ({ id: fx.noteId, offset: 12, fraction: 0.5 }),
    export: (fx) => ({ id: fx.noteId, format: 'markdown' }),
    list: (fx) => ({ nav: 'all', folderId: fx.folderId, q: 'note', sort: SortOrder.newestFirst, limit: 10 }),
    counts: () => undefined,
    setFlow: (fx) => ({ ids: [fx.noteId], flow: Flow.later }),
    trash: (fx) => ({ ids: [fx.noteId] }),
    restore: (fx) => ({ ids: [fx.noteId] }),
    deleteForever: (fx) => ({ ids: [fx.noteId] }),
    moveToFolder: (fx) => ({ ids: [fx.noteId], folderId: fx.folderId }),
    tags: () => undefined,
    addTag: (fx) => ({ ids: [fx.noteId], tag: 'added' }),
    removeTag: (fx) => ({ ids: [fx.noteId], tag: fx.tag }),
    renameTag: (fx) => ({ from: fx.tag, to: 'renamed' }),
    mergeTags: (fx) => ({ from: [fx.tag], to: 'merged' }),
  },
  highlights: {
    create: (fx) => ({
      id: newId(),
      noteId: fx.noteId,
      coreType: CoreType.textNote,
      text: 'A new text note',
    }),
    update: (fx) => ({ id: fx.highlightId, slotId: 3, annotation: 'changed', tags: [fx.tag] }),
    reattach: (fx) => ({
      id: fx.highlightId,
      selectors: {
        quote: { type: 'TextQuoteSelector', exact: 'note text', prefix: '', suffix: '' },
        position: { type: 'TextPositionSelector', start: 0, end: 9 },
      },
    }),
    delete: (fx) => ({ id: fx.highlightId }),
    locate: (fx) => ({ id: fx.highlightId }),
    byNote: (fx) => ({ id: fx.noteId }),
    list: (fx) => ({ noteId: fx.noteId, q: 'note', tag: fx.tag, limit: 10 }),
    export: (fx) => ({ noteId: fx.noteId, format: 'text' }),
  },
  folders: {
    list: () => undefined,
    create: (fx) => ({ name: 'Sub', parentId: fx.folderId }),
    rename: (fx) => ({ id: fx.folderId, name: 'Renamed' }),
    delete: (fx) => ({ id: fx.folderId }),
  },
  daily: {
    get: (fx) => ({ date: fx.day }),
    save: (fx) => ({ date: fx.day, text: 'saved', baseText: '', baseVersion: 0 }),
    append: () => ({ text: 'appended' }),
    list: () => ({ limit: 10, q: 'day' }),
    moveHighlights: (fx) => ({ ids: [fx.highlightId], target: 'today' }),
    undoMove: (fx) => ({ moveId: fx.dailyMoveId }),
    export: (fx) => ({ date: fx.day, format: 'markdown' }),
  },
  sync: {
    integrations: () => undefined,
    integration: () => ({ app: 'obsidian' }),
    updateSettings: (fx) => ({
      app: 'obsidian',
      settings: { filter: { tags: [fx.tag], folderId: fx.folderId, flows: [], since: null } },
    }),
    setEnabled: () => ({ app: 'flomo', enabled: false }),
    runOnce: () => ({ app: 'obsidian' }),
    unbind: () => ({ app: 'logseq' }),
    preview: (fx) => ({ app: 'obsidian', noteId: fx.noteId }),
    tokens: () => undefined,
    createToken: () => ({ app: 'obsidian', name: 'Laptop' }),
    renameToken: (fx) => ({ id: fx.syncTokenId, name: 'Renamed' }),
    revokeToken: (fx) => ({ id: fx.syncTokenId }),
    confirmDevice: () => ({ serviceId: 7, clientId: `client-${newId()}` }),
    // A kernel on loopback that no test allows: the guard refuses it before any connection.
    connectPush: () => ({
      app: 'siyuan',
      credentials: { kernelUrl: 'http://127.0.0.1:6806', token: 'token', notebook: 'Margin' },
    }),
    retryPush: () => ({ app: 'workflowy' }),
  },
  openapi: {
    tokens: () => undefined,
    createToken: () => ({ name: 'Shortcuts', scopes: ['read', 'daily'], expiresInDays: 30 }),
    revokeToken: (fx) => ({ id: fx.apiTokenId }),
  },
  webhooks: {
    list: () => undefined,
    create: () => ({ url: 'https://hooks.example.test/margin', events: ['highlight.created'] }),
    update: (fx) => ({ id: fx.webhookEndpointId, events: ['note.created'], enabled: false }),
    remove: (fx) => ({ id: fx.webhookEndpointId }),
    rollSecret: (fx) => ({ id: fx.webhookEndpointId }),
    deliveries: (fx) => ({ id: fx.webhookEndpointId, limit: 10 }),
    sendTest: (fx) => ({ id: fx.webhookEndpointId }),
  },
  membership: {
    overview: () => undefined,
    createOrder: () => ({ productId: 'pro-month', provider: 'stripe' }),
    order: (fx) => ({ id: fx.orderId }),
    orders: () => ({ limit: 10 }),
  },
  feedback: {
    send: () => ({
      kind: 'idea',
      message: 'A sample message',
      contact: 'reader@example.test',
      environment: { appVersion: '0.1.0', language: 'en', timeZone: 'UTC' },
    }),
    list: () => undefined,
  },
  settings: {
    get: () => undefined,
    update: () => ({ theme: 'y', textTooltipStyle: 3, c3: '#12ABEF', c5: null }),
    reset: () => undefined,
  },
};

export function sampleInput(path: string, fx: Fixtures): unknown {
  const [routerName, name] = path.split('.') as [string, string];
  const build = (SAMPLES as unknown as Record<string, Record<string, (fx: Fixtures) => unknown>>)[
    routerName
  ]?.[name];
  if (!build) throw new Error(`no sample input for ${path}`);
  return build(fx);
}

export interface CallResult {
  status: number;
  data: unknown;
  error: { appCode?: string; messageKey?: string; httpStatus?: number } | null;
  text: string;
}

/** The parsed body of a reply: tRPC answers some request errors as text/plain, so it is read from the text. */
export function bodyOf(res: { text: string; body: unknown }): unknown {
  try {
    return JSON.parse(res.text);
  } catch {
    return res.body;
  }
}

/** Calls a procedure over HTTP as a browser would (superjson, one call, optional session cookie). */
export async function callProcedure(
  app: Express,
  procedure: Pick<ProcedureInfo, 'path' | 'type'>,
  input: unknown,
  token?: string | null,
  raw?: { body?: string },
): Promise<CallResult> {
  const payload = raw?.body ?? JSON.stringify(superjson.serialize(input));
  const url = `/trpc/${procedure.path}`;
  let req =
    procedure.type === 'query'
      ? request(app).get(input === undefined && !raw ? url : `${url}?input=${encodeURIComponent(payload)}`)
      : request(app).post(url).set('content-type', 'application/json').send(payload);
  if (token) req = req.set('cookie', `logininfo=${token}`);
  const res = await req.catch((error: NodeJS.ErrnoException) => {
    // Node refuses a request line over its header limit with 431 and closes the socket, often
    // before the client has finished writing: the client then sees a reset instead of the 431.
    const tooLong = procedure.type === 'query' && url.length + payload.length * 3 > http.maxHeaderSize;
    if (tooLong && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
      return { status: 431, body: null, text: 'request line too long (socket closed by the server)' };
    }
    throw error;
  });
  const body = bodyOf(res) as {
    result?: { data?: { json?: unknown } };
    error?: { json?: { data?: unknown } };
  };
  return {
    status: res.status,
    data: body?.result?.data?.json,
    error: (body?.error?.json?.data as CallResult['error']) ?? null,
    text: res.text,
  };
}

/**
 * Bookkeeping a request may write without changing anything a user made: when a session was last
 * seen, when and by which client a token was last used.
 */
const USE_BOOKKEEPING = ['last_seen_at', 'last_used_at', 'last_used_client'];

/** The one statement that checksums every table of a database, built once per database. */
const fingerprintSql = new Map<string, Promise<string>>();

async function buildFingerprintSql(deps: AppDeps): Promise<string> {
  const columns = await deps.orm.em.fork().execute<{ table_name: string; column_name: string }[]>(
    `select c.table_name, c.column_name from information_schema.columns c
     join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
     where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.table_name not like 'mikro_orm%'
       and c.column_name not in (?)
     order by c.table_name, c.ordinal_position`,
    [USE_BOOKKEEPING],
  );
  const byTable = new Map<string, string[]>();
  for (const c of columns)
    byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), `"${c.column_name}"`]);
  return [...byTable]
    .map(
      ([table, cols]) =>
        `select '${table}' as t, count(*) || ':' || coalesce(md5(string_agg(r::text, '|' order by r::text)), '') as f
         from (select row(${cols.join(', ')}) as r from "${table}") rows`,
    )
    .join(' union all ');
}

/**
 * One checksum per table: equal fingerprints mean no row anywhere was added, changed or removed
 * (the use bookkeeping above left out). One round trip, so a suite can take one per probe batch.
 */
export async function fingerprint(deps: AppDeps): Promise<Record<string, string>> {
  const database = deps.config.databaseUrl ?? '';
  if (!fingerprintSql.has(database)) fingerprintSql.set(database, buildFingerprintSql(deps));
  const rows = await deps.orm.em
    .fork()
    .execute<{ t: string; f: string }[]>((await fingerprintSql.get(database)) as string);
  return Object.fromEntries(rows.map((row) => [row.t, row.f]));
}

/**
 * A user with a session and one of everything a procedure can refer to; of a membership when
 * said (with membership on, only a PRO one may make the API token and webhook).
 */
export async function makeFixtures(deps: AppDeps, marker = 'fixture', member?: MemberKind) {
  const user = member ? await memberUser(deps, member) : await signedInUser(deps);
  const note = await makeClippedNote(deps, user.user.id, {
    title: `${marker} note title`,
    text: `${marker} note text with a highlight`,
    tags: [`${marker}-tag`],
  });
  const folder = await user.caller.folders.create({ name: `${marker} folder` });
  await user.caller.notes.moveToFolder({ ids: [note.id], folderId: folder.id });
  const highlight = await user.caller.highlights.create({
    id: newId(),
    noteId: note.id,
    coreType: CoreType.textNote,
    text: `${marker} highlight`,
    tags: [`${marker}-tag`],
  });
  const day = '2026-03-01';
  await user.caller.daily.save({ date: day, text: `${marker} day`, baseText: '', baseVersion: 0 });
  const { moveId: dailyMoveId } = await user.caller.daily.moveHighlights({
    ids: [highlight.id],
    target: 'new',
  });
  // Straight from the service: over HTTP, one address may only create a few tickets a minute.
  const { ticketId, secret } = await createTicket(
    { redis: deps.redis, redisPrefix: deps.config.redisPrefix, publicUrl: 'http://margin.test' },
    { ip: null, userAgent: 'fixtures' },
  );
  const { view: syncToken } = await user.caller.sync.createToken({
    app: 'obsidian',
    name: `${marker} token`,
  });
  const { view: apiToken } = await user.caller.openapi.createToken({
    name: `${marker} api token`,
    scopes: ['read'],
    expiresInDays: null,
  });
  const { endpoint } = await user.caller.webhooks.create({
    url: `https://hooks.example.test/${marker}`,
    events: ['highlight.created', 'note.updated'],
  });
  // An unpaid order, straight into the table: paying one needs a provider.
  const order = deps.orm.em.fork().create(Order, {
    id: newOrderId(),
    user: user.user.id,
    source: 'stripe',
    productId: 'pro-month',
    tier: 'pro',
    proDays: 31,
    amount: 499,
    currency: 'USD',
    description: `${marker} order`,
  });
  await deps.orm.em.fork().persist(order).flush();
  const fx: Fixtures = {
    email: user.user.email ?? '',
    noteId: note.id,
    highlightId: highlight.id,
    folderId: folder.id,
    tag: `${marker}-tag`,
    day,
    dailyMoveId,
    ticketId,
    ticketSecret: secret,
    syncTokenId: syncToken.id,
    apiTokenId: apiToken.id,
    webhookEndpointId: endpoint.id,
    orderId: order.id,
  };
  return { ...user, fx };
}
