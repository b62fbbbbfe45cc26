import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_MEMBERSHIP_CONFIG } from '../../server/membership-config.ts';
import type { ConnectPushInput } from '../../src/schemas/sync.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { becomeMember, type MemberKind, memberUser } from '../helpers/membership.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { apiUser } from '../helpers/openapi.ts';
import {
  type FlomoServer,
  type SiyuanServer,
  startFlomo,
  startSiyuan,
  startWorkflowy,
  type WorkflowyServer,
} from '../helpers/push-servers.ts';
import { highlight } from '../helpers/push-setup.ts';

// The membership gates as a caller meets them, MEMBERSHIP=on, for the four memberships the spec
// names: every PRO feature over tRPC and the Open API refuses a free user ("Only for PRO user")
// and a lapsed one ("Membership expired"), with the upgrade page's path; the free features and a
// lapsed member's reading of what they made stay open; with MEMBERSHIP=off nothing is gated.
// The workers' side is in test/jobs/membership-gates.test.ts.

const KINDS = ['free', 'pro', 'superPro', 'expired'] as const satisfies readonly MemberKind[];
/** The four memberships the spec names. */
type Kind = (typeof KINDS)[number];
const REFUSAL: Record<Kind, 'errors.onlyForPro' | 'errors.membershipExpired' | null> = {
  free: 'errors.onlyForPro',
  pro: null,
  superPro: null,
  expired: 'errors.membershipExpired',
};
const UPGRADE = '/personSetting/membership';
const TEXT = 'Every margin holds a second voice. Reading slowly is reading twice.';
const PUSH_GATED = ['flomo', 'workflowy'] as const;
const WORKFLOWY_PARENT = '7f3c2a10-5b1d-4e2f-9a8b-0c1d2e3f4a5b';

let flomo: FlomoServer;
let workflowy: WorkflowyServer;
let siyuan: SiyuanServer;
beforeAll(async () => {
  [flomo, workflowy, siyuan] = await Promise.all([startFlomo(), startWorkflowy(), startSiyuan()]);
});
afterAll(async () => {
  await Promise.all([flomo?.close(), workflowy?.close(), siyuan?.close()]);
});

/** Real deps and server with the local tool servers reachable; membership on unless `off`. */
async function startGateEnv(membership: 'on' | 'off') {
  const deps = await createTestDeps({
    MEMBERSHIP: membership,
    FETCH_ALLOW_TARGETS: [flomo.target, workflowy.target, siyuan.target].join(','),
    FLOMO_API_ORIGIN: flomo.origin,
    WORKFLOWY_API_ORIGIN: workflowy.origin,
  });
  return { deps, server: await startServer(deps) };
}

type Member = Awaited<ReturnType<typeof memberUser>>;

/** Refused as the spec says: FORBIDDEN with the refusal's key and the upgrade page's path. */
async function expectRefused(call: Promise<unknown>, key: string) {
  await expect(call).rejects.toMatchObject({
    code: 'FORBIDDEN',
    message: key,
    cause: { messageKey: key, params: { upgrade: UPGRADE } },
  });
}

/** `call` as a user of `kind`: refused with that membership's refusal (answering undefined), or answered. */
async function gated<T>(kind: Kind, call: () => Promise<T>): Promise<T | undefined> {
  const refusal = REFUSAL[kind];
  if (!refusal) return call();
  await expectRefused(call(), refusal);
  return undefined;
}

/** New credentials each tool accepts, and the requests the tool had with them. */
function newConnection(app: (typeof PUSH_GATED)[number]) {
  if (app === 'flomo') {
    const webhookUrl = flomo.newWebhook();
    const path = new URL(webhookUrl).pathname;
    return {
      input: { app, credentials: { webhookUrl } } satisfies ConnectPushInput,
      requests: () => flomo.received.filter((r) => r.path === path),
    };
  }
  const apiKey = workflowy.newKey();
  return {
    input: { app, credentials: { apiKey, parentId: WORKFLOWY_PARENT } } satisfies ConnectPushInput,
    requests: () => workflowy.received.filter((r) => r.headers.authorization === `Bearer ${apiKey}`),
  };
}

function hookUrl() {
  return `https://hooks.example.com/${Math.random().toString(36).slice(2)}`;
}

describe('MEMBERSHIP=on', () => {
  let deps: TestDeps;
  let server: RunningServer;
  beforeAll(async () => {
    ({ deps, server } = await startGateEnv('on'));
  });
  afterAll(async () => {
    await server?.close();
    await deps?.close();
  });

  /** The integration's row as stored, whole, to show a refusal changed nothing. */
  async function integrationState(userId: number, app: string) {
    const [row] = await deps.orm.em
      .fork()
      .execute('select * from "integration" where "user_id" = ? and "app" = ?', [userId, app]);
    return row ?? null;
  }

  /** The user's push jobs for `app` not yet run (no worker runs in this file). */
  async function queuedPushes(userId: number, app: string) {
    const jobs = await deps.queues.push.getJobs(['waiting', 'delayed', 'prioritized', 'active']);
    return jobs.filter((job) => job.data.userId === userId && job.data.app === app);
  }

  /** A user of `kind` whose `app` was connected while PRO, with the push that queued gone. */
  async function connectedWhilePro(kind: MemberKind, app: (typeof PUSH_GATED)[number]) {
    const pro = await memberUser(deps, 'pro');
    await pro.caller.sync.connectPush(newConnection(app).input);
    for (const job of await queuedPushes(pro.user.id, app)) await job.remove();
    return becomeMember(deps, pro, kind);
  }

  describe.each(KINDS)('a %s user over tRPC', (kind) => {
    test('Open API tokens: made only by a live PRO member', async () => {
      const member = await memberUser(deps, kind);
      for (const scopes of [['read', 'write'], ['daily']] as const) {
        const made = await gated(kind, () =>
          member.caller.openapi.createToken({ name: 'script', scopes: [...scopes], expiresInDays: null }),
        );
        if (made) expect(made.token).toMatch(/^mapi_/);
      }
      expect(await member.caller.openapi.tokens()).toHaveLength(REFUSAL[kind] ? 0 : 2);
    });

    test('webhooks: created, tested, edited and turned on only by a live PRO member; turned off by anyone', async () => {
      const member = await memberUser(deps, kind);
      const created = await gated(kind, () =>
        member.caller.webhooks.create({ url: hookUrl(), events: ['highlight.created'] }),
      );
      if (REFUSAL[kind]) expect(await member.caller.webhooks.list()).toEqual([]);
      else expect(created?.secret).toMatch(/^whsec_/);

      // An endpoint made while PRO, then the membership is what it is.
      const pro = await memberUser(deps, 'pro');
      const { endpoint } = await pro.caller.webhooks.create({ url: hookUrl(), events: ['note.created'] });
      const now = await becomeMember(deps, pro, kind);
      await gated(kind, () => now.caller.webhooks.sendTest({ id: endpoint.id }));
      const pings = (await now.caller.webhooks.deliveries({ id: endpoint.id, limit: 10 })).items;
      expect(pings.map((d) => d.type)).toEqual(REFUSAL[kind] ? [] : ['ping']);

      const newUrl = hookUrl();
      await gated(kind, () => now.caller.webhooks.update({ id: endpoint.id, url: newUrl }));
      // Turning it off while changing it is changing it.
      await gated(kind, () =>
        now.caller.webhooks.update({ id: endpoint.id, enabled: false, events: ['highlight.deleted'] }),
      );
      const off = await now.caller.webhooks.update({ id: endpoint.id, enabled: false });
      expect(off).toMatchObject({
        enabled: false,
        url: REFUSAL[kind] ? endpoint.url : newUrl,
        events: REFUSAL[kind] ? ['note.created'] : ['highlight.deleted'],
      });
      const on = await gated(kind, () => now.caller.webhooks.update({ id: endpoint.id, enabled: true }));
      expect(on?.enabled ?? false).toBe(!REFUSAL[kind]);
      const [stored] = await now.caller.webhooks.list();
      expect(stored).toMatchObject({ id: endpoint.id, enabled: !REFUSAL[kind] });
    });

    test.each(PUSH_GATED)(
      '%s: connected only by a live PRO member; a refusal never reaches the tool',
      async (app) => {
        const member = await memberUser(deps, kind);
        const connection = newConnection(app);
        const view = await gated(kind, () => member.caller.sync.connectPush(connection.input));
        if (REFUSAL[kind]) {
          expect(connection.requests()).toEqual([]);
          expect(await integrationState(member.user.id, app)).toBeNull();
          expect(await queuedPushes(member.user.id, app)).toEqual([]);
        } else {
          expect(view).toMatchObject({ app, bound: true, enabled: true });
          // flomo's webhook is checked by its form alone; WorkFlowy's key with a harmless call.
          if (app === 'workflowy') expect(connection.requests().length).toBeGreaterThan(0);
          expect(await queuedPushes(member.user.id, app)).toHaveLength(1);
        }
      },
    );

    test.each(PUSH_GATED)(
      '%s: retry and run once only for a live PRO member; a refusal changes nothing',
      async (app) => {
        const member = await connectedWhilePro(kind, app);
        const before = await integrationState(member.user.id, app);
        expect(before).toMatchObject({ bound: true });
        await gated(kind, () => member.caller.sync.retryPush({ app }));
        await gated(kind, () => member.caller.sync.runOnce({ app }));
        if (REFUSAL[kind]) {
          expect(await integrationState(member.user.id, app)).toEqual(before);
          expect(await queuedPushes(member.user.id, app)).toEqual([]);
        } else {
          expect(await queuedPushes(member.user.id, app)).toHaveLength(1);
        }
      },
    );

    test('SiYuan pushes are not gated', async () => {
      const member = await memberUser(deps, kind);
      const view = await member.caller.sync.connectPush({
        app: 'siyuan',
        credentials: { kernelUrl: siyuan.origin, token: siyuan.token, notebook: 'Margin' },
      });
      expect(view).toMatchObject({ app: 'siyuan', bound: true });
      await member.caller.sync.retryPush({ app: 'siyuan' });
      await member.caller.sync.runOnce({ app: 'siyuan' });
      expect(await queuedPushes(member.user.id, 'siyuan')).toHaveLength(1);
    });

    test('the free features work: clipping, highlights, the library, export and the pull sync API', async () => {
      const member = await memberUser(deps, kind);
      const clipped = await member.caller.notes.clipHtml({
        url: `https://pages.example/clip-${kind}`,
        html: `<html><head><title>Clipped</title></head><body><p>${TEXT}</p></body></html>`,
      });
      expect(clipped.created).toBe(true);
      const note = await makeClippedNote(deps, member.user.id, { title: 'Kept', text: TEXT, tags: ['kept'] });
      await highlight(member, { id: note.id, text: TEXT }, 'second voice');

      expect((await member.caller.notes.list({})).items.map((n) => n.id)).toContain(note.id);
      expect((await member.caller.notes.counts()).all).toBe(2);
      expect(await member.caller.notes.tags()).toEqual([expect.objectContaining({ tag: 'kept' })]);
      expect(await member.caller.folders.list()).toEqual([]);
      expect((await member.caller.highlights.list({})).items).toHaveLength(1);

      const exported = await member.caller.notes.export({ id: note.id, format: 'markdown' });
      expect(exported.content).toContain('second voice');
      const zip = await fetch(`${server.url}/api/export/markdown.zip`, {
        headers: { Cookie: `logininfo=${member.token}` },
      });
      expect(zip.status).toBe(200);
      expect(zip.headers.get('content-type')).toContain('zip');
      expect((await zip.arrayBuffer()).byteLength).toBeGreaterThan(0);

      const { token } = await member.caller.sync.createToken({ app: 'obsidian', name: 'Laptop' });
      const init = await fetch(`${server.url}/api/sync/v1/init`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ clientId: `client-${kind}` }),
      });
      expect(init.status).toBe(200);
      expect(await init.json()).toMatchObject({ app: 'obsidian' });
    });
  });

  test('a lapsed member still reads their tokens, webhooks and deliveries, and may turn a webhook off', async () => {
    const pro = await memberUser(deps, 'pro');
    await pro.caller.openapi.createToken({ name: 'script', scopes: ['read'], expiresInDays: null });
    const { endpoint } = await pro.caller.webhooks.create({ url: hookUrl(), events: ['note.created'] });
    await pro.caller.webhooks.sendTest({ id: endpoint.id });
    const lapsed = await becomeMember(deps, pro, 'expired');

    expect(await lapsed.caller.openapi.tokens()).toMatchObject([{ name: 'script', scopes: ['read'] }]);
    expect(await lapsed.caller.webhooks.list()).toMatchObject([{ id: endpoint.id, enabled: true }]);
    const log = await lapsed.caller.webhooks.deliveries({ id: endpoint.id, limit: 10 });
    expect(log.items).toMatchObject([{ type: 'ping', status: 'pending' }]);

    const off = await lapsed.caller.webhooks.update({ id: endpoint.id, enabled: false });
    expect(off).toMatchObject({ enabled: false, disabledReason: null });
    const after = await lapsed.caller.webhooks.deliveries({ id: endpoint.id, limit: 10 });
    expect(after.items).toMatchObject([{ type: 'ping', status: 'failed' }]);
  });

  describe('the Open API over HTTP, with tokens made while PRO', () => {
    const EXPECTED: Record<
      Kind,
      { read: number; write: number; message?: string; limit: number; writeMessage?: string }
    > = {
      free: {
        read: 403,
        write: 403,
        message: 'Only for PRO user',
        writeMessage: 'Only for PRO user',
        limit: 120,
      },
      pro: { read: 200, write: 201, limit: 120 },
      superPro: { read: 200, write: 201, limit: 600 },
      expired: { read: 200, write: 403, writeMessage: 'Membership expired', limit: 120 },
    };

    test.each(KINDS)('a %s user', async (kind) => {
      const owner = await apiUser(deps, ['read', 'write', 'daily'], 'pro');
      await makeClippedNote(deps, owner.user.id, { title: 'Mine', text: TEXT });
      await becomeMember(deps, owner, kind);
      const expected = EXPECTED[kind];
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${server.url}/openapi/v1${path}`, {
          method,
          headers: { Authorization: `Bearer ${owner.apiToken}`, 'Content-Type': 'application/json' },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });
      const expectAnswer = async (answer: Response, status: number, message?: string) => {
        expect(answer.status).toBe(status);
        expect(answer.headers.get('RateLimit-Limit')).toBe(String(expected.limit));
        const body = await answer.json();
        if (status === 403)
          expect(body).toMatchObject({
            code: 403,
            message,
            data: null,
            error: { type: 'forbidden', upgrade: UPGRADE },
          });
        else expect(body).toMatchObject({ code: 1 });
      };

      await expectAnswer(await call('GET', '/notes'), expected.read, expected.message);
      await expectAnswer(
        await call('POST', '/notes', { url: `https://pages.example/api-${kind}` }),
        expected.write,
        expected.writeMessage,
      );
      // HEAD is a GET without the body: the same answer.
      expect((await call('HEAD', '/notes')).status).toBe(expected.read);
      await expectAnswer(await call('GET', '/daily/today'), expected.read, expected.message);
      await expectAnswer(
        await call('POST', '/daily/today/append', { text: 'A line from a script.' }),
        expected.write === 201 ? 200 : 403,
        expected.writeMessage,
      );
    });
  });

  describe('quotas by level', () => {
    test.each([
      ['pro', false],
      ['superPro', true],
    ] as const)('a %s user’s 26th API token and 11th webhook endpoint (made: %s)', async (kind, allowed) => {
      const member = await memberUser(deps, kind);
      const token = (i: number) =>
        member.caller.openapi.createToken({ name: `t${i}`, scopes: ['read'], expiresInDays: null });
      const hook = () => member.caller.webhooks.create({ url: hookUrl(), events: ['note.created'] });
      for (let i = 0; i < 25; i++) await token(i);
      for (let i = 0; i < 10; i++) await hook();
      if (allowed) {
        await token(25);
        await hook();
      } else {
        await expect(token(25)).rejects.toMatchObject({
          code: 'CONFLICT',
          message: 'errors.apiTokenLimit',
          cause: { params: { max: 25 } },
        });
        await expect(hook()).rejects.toMatchObject({
          code: 'CONFLICT',
          message: 'errors.webhookLimit',
          cause: { params: { max: 10 } },
        });
      }
      expect(await member.caller.openapi.tokens()).toHaveLength(allowed ? 26 : 25);
      expect(await member.caller.webhooks.list()).toHaveLength(allowed ? 11 : 10);
    });
  });
});

describe('an operator’s plan table giving free users the daily API alone', () => {
  let deps: TestDeps;
  let server: RunningServer;
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'margin-plans-'));
    const { plans } = DEFAULT_MEMBERSHIP_CONFIG;
    const file = path.join(dir, 'membership.json');
    const free = { ...plans.free, features: [...plans.free.features, 'dailyApi'] };
    await fs.writeFile(file, JSON.stringify({ plans: { ...plans, free } }));
    deps = await createTestDeps({ MEMBERSHIP: 'on', MEMBERSHIP_CONFIG: file });
    server = await startServer(deps);
  });
  afterAll(async () => {
    await server?.close();
    await deps?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  test('a token needs every feature its scopes reach: daily alone is made, read and daily is not', async () => {
    const member = await memberUser(deps, 'free');
    const make = (scopes: ('read' | 'write' | 'daily')[]) =>
      member.caller.openapi.createToken({ name: scopes.join('+'), scopes, expiresInDays: null });
    await expectRefused(make(['read']), 'errors.onlyForPro');
    await expectRefused(make(['read', 'daily']), 'errors.onlyForPro');
    await expectRefused(make(['write', 'daily']), 'errors.onlyForPro');
    const { token } = await make(['daily']);
    expect((await member.caller.openapi.tokens()).map((t) => t.scopes)).toEqual([['daily']]);
    const today = await fetch(`${server.url}/openapi/v1/daily/today`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(today.status).toBe(200);
  });
});

describe('MEMBERSHIP=off', () => {
  let deps: TestDeps;
  let server: RunningServer;
  beforeAll(async () => {
    ({ deps, server } = await startGateEnv('off'));
  });
  afterAll(async () => {
    await server?.close();
    await deps?.close();
  });

  test.each(['free', 'expired'] as const)('a %s user has every feature: no gate', async (kind) => {
    const member: Member = await memberUser(deps, kind);
    const { token } = await member.caller.openapi.createToken({
      name: 'script',
      scopes: ['read', 'write', 'daily'],
      expiresInDays: null,
    });
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}/openapi/v1${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      });
    const notes = await api('/notes');
    expect(notes.status).toBe(200);
    expect(notes.headers.get('RateLimit-Limit')).toBe('120');
    const append = await api('/daily/today/append', {
      method: 'POST',
      body: JSON.stringify({ text: 'No gate here.' }),
    });
    expect(append.status).toBe(200);

    const { endpoint } = await member.caller.webhooks.create({ url: hookUrl(), events: ['note.created'] });
    await member.caller.webhooks.sendTest({ id: endpoint.id });
    await member.caller.webhooks.update({ id: endpoint.id, enabled: false });
    expect(await member.caller.webhooks.update({ id: endpoint.id, enabled: true })).toMatchObject({
      enabled: true,
    });

    const connection = newConnection('flomo');
    expect(await member.caller.sync.connectPush(connection.input)).toMatchObject({ bound: true });
    await member.caller.sync.retryPush({ app: 'flomo' });
    await member.caller.sync.runOnce({ app: 'flomo' });
  });
});
