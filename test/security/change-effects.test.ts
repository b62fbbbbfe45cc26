import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { Integration } from '../../server/db/entities/index.ts';
import { OPERATIONS } from '../../server/openapi/operations/index.ts';
import { findJob } from '../../server/queue.ts';
import { syncRoutes } from '../../server/sync/index.ts';
import { WEBHOOK_EVENTS } from '../../src/schemas/webhooks.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import {
  type Answer,
  bearer,
  eachLimited,
  expressRoutes,
  type FrontUser,
  frontUser,
  generousMembershipConfig,
  randomClientId,
  restRequest,
  restSample,
  SYNC_SAMPLES,
  type SyncSample,
  send,
  syncRequest,
} from './fronts-inventory.ts';
import { callProcedure, PROCEDURES, sampleInput } from './router-inventory.ts';

// What follows a change is the domain's (server/domain/changes.ts), not a front's: every mutating
// path of every front — each tRPC mutation, each REST operation that is not a GET and each sync
// route, all found from the real routers so a new one is covered the day it is added — is called
// for a user with a connected push tool and a webhook endpoint taking every event, and:
// - a call that changed what the push tools receive (a row stamped by the sync's triggers, or a
//   tombstone) has a push queued, and only such a call does (bar those that push on purpose);
// - a call that recorded webhook events has their delivery queued;
// - the fronts' twins (trash in the app, over REST, from Obsidian and Logseq…) have the same effects.

let deps: TestDeps;
let app: Express;
let server: RunningServer;

beforeAll(async () => {
  deps = await createTestDeps({ MEMBERSHIP: 'on', MEMBERSHIP_CONFIG: generousMembershipConfig() });
  app = createApp(deps);
  server = await startServer(deps);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await deps?.close();
});

/** What one call did, as a push tool and a webhook receiver would come to see it. */
interface Effects {
  status: number;
  /** The call was served (2xx, and no error in the seed's envelope). */
  served: boolean;
  exportChanged: boolean;
  events: string[];
  pushQueued: boolean;
  deliveryQueued: boolean;
}

interface Watched {
  owner: FrontUser;
  endpointId: string;
}

const PUSH_APP = 'flomo' as const;

/** A fresh user with every credential, a connected push tool and an endpoint taking every event. */
async function watchedUser(marker: string): Promise<Watched> {
  const owner = await frontUser(deps, marker);
  const { endpoint } = await owner.caller.webhooks.create({
    url: `https://hooks.example.test/${marker}/all`,
    events: [...WEBHOOK_EVENTS],
  });
  const em = deps.orm.em.fork();
  em.create(Integration, {
    user: owner.user.id,
    app: PUSH_APP,
    bound: true,
    enabled: true,
    credentials: { webhookUrl: 'https://flomoapp.example.test/iwh/1' },
  });
  await em.flush();
  return { owner, endpointId: endpoint.id };
}

async function deliveriesOf(endpointId: string): Promise<Map<string, string>> {
  const rows = await deps.orm.em
    .fork()
    .execute<{ id: string; event_type: string }[]>(
      'select "id", "event_type" from "webhook_delivery" where "endpoint_id" = ?',
      [endpointId],
    );
  return new Map(rows.map((row) => [String(row.id), row.event_type]));
}

const pushJob = (w: Watched) => findJob(deps.queues, 'push', { userId: w.owner.user.id, app: PUSH_APP });
const deliveryJob = (w: Watched) => findJob(deps.queues, 'webhookDeliver', { endpointId: w.endpointId });

/** Runs `call` and tells what followed it. */
async function observe(
  w: Watched,
  call: () => Promise<{ status: number; served: boolean }>,
): Promise<Effects> {
  for (const job of [await pushJob(w), await deliveryJob(w)]) await job?.remove();
  const em = deps.orm.em.fork();
  const [{ seq }] = (await em.execute(`select nextval('change_seq')::bigint as "seq"`)) as [{ seq: string }];
  const before = await deliveriesOf(w.endpointId);
  const { status, served } = await call();
  const [{ changed }] = (await em.execute(
    `select exists (select 1 from "note" where "user_id" = ? and "change_seq" > ?)
        or exists (select 1 from "highlight" where "user_id" = ? and "change_seq" > ?)
        or exists (select 1 from "export_tombstone" where "user_id" = ? and "change_seq" > ?) as "changed"`,
    [w.owner.user.id, seq, w.owner.user.id, seq, w.owner.user.id, seq],
  )) as [{ changed: boolean }];
  const events = [...(await deliveriesOf(w.endpointId))]
    .filter(([id]) => !before.has(id))
    .map(([, type]) => type)
    .sort();
  return {
    status,
    served,
    exportChanged: changed,
    events,
    pushQueued: (await pushJob(w)) !== undefined,
    deliveryQueued: (await deliveryJob(w)) !== undefined,
  };
}

const servedHttp = (answer: Answer) =>
  answer.status >= 200 && answer.status < 300 && (answer.json?.code === undefined || answer.json.code === 1);

// ---- The mutating paths of every front --------------------------------------------------------

type Call = () => Promise<{ status: number; served: boolean }>;

interface MutatingPath {
  name: string;
  /** Builds the path's sample request for `w` (what that needs is done here, unwatched) and answers the call. */
  prepare(w: Watched): Promise<Call>;
}

const httpCall =
  (request: Parameters<typeof send>[1]): Call =>
  async () => {
    const answer = await send(server.url, request);
    return { status: answer.status, served: servedHttp(answer) };
  };

const trpcPaths: MutatingPath[] = PROCEDURES.filter((p) => p.type === 'mutation').map((p) => ({
  name: `trpc ${p.path}`,
  prepare: async (w) => async () => {
    const result = await callProcedure(app, p, sampleInput(p.path, w.owner.fx), w.owner.token);
    return { status: result.status, served: result.status === 200 && result.error === null };
  },
}));

const restPaths: MutatingPath[] = OPERATIONS.filter((op) => op.method !== 'get').map((op) => ({
  name: `rest ${op.operationId}`,
  prepare: async (w) => {
    const headers = bearer(w.owner.credentials.api);
    const ctx = {
      owner: w.owner,
      call: (method: string, route: string, body?: unknown) =>
        send(server.url, restRequest({ method, path: route }, { body }, headers)),
    };
    return httpCall(restRequest(op, await restSample(op.operationId, ctx), headers));
  },
}));

function syncPaths(): MutatingPath[] {
  return expressRoutes(syncRoutes(deps)).map((route) => {
    const name = `${route.method} ${route.path}`;
    return {
      name: `sync ${name}`,
      prepare: async (w) => {
        const build = SYNC_SAMPLES[name];
        if (!build) throw new Error(`no sample for ${name}`);
        const callRoute = (path: string, sample: SyncSample) =>
          send(server.url, syncRequest({ method: 'POST', path }, sample, JSON.stringify(sample.body)));
        const clients = { v1: randomClientId(), seed: randomClientId() };
        const sample = await build({ owner: w.owner, clients, call: callRoute });
        return httpCall(syncRequest(route, sample, JSON.stringify(sample.body)));
      },
    };
  });
}

/**
 * Calls whose sample is not served for a reason of the sample's, not of the effects: each says
 * why. Any other path must be served, so no path passes by being refused.
 */
const NOT_SERVED: Record<string, string> = {
  'trpc auth.login': 'the fixture user has a session, not the sample’s password',
  'trpc auth.register': 'the address is registered already (it is the fixture user’s)',
  'trpc auth.resetPassword': 'the sample’s code was never sent',
  'trpc highlights.reattach': 'the fixture’s highlight is a text note, with no passage to move',
  'sync POST /page/auth/openapi/gettoken':
    'no device was confirmed for the client: the poll answers “pending”',
  'trpc account.bindEmail': 'the sample’s code was never sent',
  'trpc account.unbindEmail': 'the email is the account’s only way in',
  'trpc account.unbindProvider': 'the account has no provider bound',
  'trpc account.delete': 'the sample’s password is not the fixture user’s',
  'trpc sync.connectPush': 'the kernel is on loopback, which the guarded fetcher refuses',
  'trpc membership.createOrder': 'no payment provider is configured in tests',
};

/** Calls that queue a push on purpose without changing what is pushed: the user asked for one. */
const PUSHES_ON_PURPOSE = new Set(['trpc sync.runOnce', 'trpc sync.retryPush', 'trpc sync.setEnabled']);

const effects = new Map<string, Effects>();

describe('what follows a change, on every front', () => {
  beforeAll(async () => {
    const paths = [...trpcPaths, ...restPaths, ...syncPaths()];
    await eachLimited(paths, 2, async (path) => {
      const watched = await watchedUser(`fx${effects.size}${Math.random().toString(36).slice(2, 8)}`);
      const call = await path.prepare(watched);
      effects.set(path.name, await observe(watched, call));
    });
  }, 300_000);

  test('every mutating path of every front was called, and served unless said why not', () => {
    expect(trpcPaths.length).toBeGreaterThan(40);
    expect(restPaths.length).toBeGreaterThan(10);
    const unexpected = [...effects]
      .filter(([name, e]) => e.served === name in NOT_SERVED)
      .map(
        ([name, e]) =>
          `${name}: ${e.served ? 'served, though listed as not served' : `answered ${e.status}`}`,
      );
    expect(unexpected).toEqual([]);
  });

  test('a call that changed what the push tools receive has a push queued; no other call has', () => {
    const wrong = [...effects]
      .filter(
        ([name, e]) => e.exportChanged !== e.pushQueued && !(PUSHES_ON_PURPOSE.has(name) && e.pushQueued),
      )
      .map(
        ([name, e]) =>
          `${name}: export ${e.exportChanged ? 'changed' : 'unchanged'}, push ${e.pushQueued ? '' : 'not '}queued`,
      );
    expect(wrong).toEqual([]);
  });

  test('a call that recorded webhook events has their delivery queued', () => {
    const wrong = [...effects]
      .filter(([, e]) => e.events.length > 0 && !e.deliveryQueued)
      .map(([name, e]) => `${name}: ${e.events.join(', ')} recorded, delivery not queued`);
    expect(wrong).toEqual([]);
  });

  /** Paths that make the same change from different fronts. */
  const TWINS: string[][] = [
    [
      'trpc notes.trash',
      'rest trashNote',
      'sync POST /api/sync/v1/delete',
      'sync POST /apix/openapi/wucai/sync/delete',
    ],
    ['trpc notes.setFlow', 'sync POST /api/sync/v1/archive', 'sync POST /apix/openapi/wucai/sync/archive'],
    ['trpc notes.restore', 'rest restoreNote'],
    ['trpc notes.clip', 'rest savePageByUrl'],
    ['trpc notes.clipHtml', 'rest createNote', 'rest completeUpload'],
    ['trpc highlights.create', 'rest createHighlight'],
    ['trpc highlights.update', 'rest updateHighlight'],
    ['trpc highlights.delete', 'rest deleteHighlight'],
    ['trpc daily.append', 'rest appendToToday'],
    ['trpc daily.save', 'rest writeDailyNote'],
    ['trpc folders.create', 'rest createFolder'],
    ['trpc folders.rename', 'rest renameFolder'],
    ['trpc folders.delete', 'rest deleteFolder'],
  ];

  test.each(TWINS.map((twins) => [twins[0]!, twins]))(
    'the twins of %s have the same effects on every front',
    (_first, twins) => {
      const seen = twins.map((name) => {
        const e = effects.get(name);
        if (!e) throw new Error(`${name} is not a mutating path any more`);
        const { status: _status, ...rest } = e;
        return [name, rest] as const;
      });
      const [, first] = seen[0]!;
      expect(first.served).toBe(true);
      for (const [name, e] of seen) expect({ name, ...e }).toEqual({ name, ...first });
    },
  );
});
