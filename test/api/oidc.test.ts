import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AuthBinding, User } from '../../server/db/entities/index.ts';
import { newUser } from '../../server/domain/auth/auth.service.ts';
import { createSession } from '../../server/domain/auth/session.service.ts';
import { LOGIN_COOKIE_KEY } from '../../src/constants.ts';
import { callerFor } from '../helpers/context.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { startTestIssuer, type TestAccount, TestBrowser, type TestIssuer } from '../helpers/oidc-provider.ts';
import { queryValue, URL_CASES } from '../security/malformed-urls.ts';

let issuer: TestIssuer;
let deps: TestDeps;
let app: RunningServer;

beforeAll(async () => {
  issuer = await startTestIssuer();
  deps = await createTestDeps({
    OIDC_ISSUER: issuer.issuer,
    OIDC_CLIENT_ID: issuer.clientId,
    OIDC_CLIENT_SECRET: issuer.clientSecret,
  });
  app = await startServer(deps);
  issuer.registerClient(`${app.url}/auth/oidc/callback`);
});
afterAll(async () => {
  await app?.close();
  await deps?.close();
  await issuer?.close();
});

const FAILED = '/login?error=oidc';
const isCallback = (url: URL) => url.origin === app.url && url.pathname === '/auth/oidc/callback';

/** Runs start → issuer (signing in as `account`) and stops before the callback reaches the app. */
async function authorize(browser: TestBrowser, account: TestAccount, query = ''): Promise<URL> {
  issuer.signInAs(account);
  browser.forget(issuer.issuer);
  return browser.followUntil(`${app.url}/auth/oidc/start${query}`, isCallback);
}

/** Delivers the callback; returns where the app sends the browser next. */
async function callback(browser: TestBrowser, url: URL): Promise<string | null> {
  const response = await browser.get(url.href);
  expect(response.status).toBe(302);
  return response.headers.get('location');
}

async function signIn(account: TestAccount, query = '') {
  const browser = new TestBrowser();
  const location = await callback(browser, await authorize(browser, account, query));
  return { browser, location, token: browser.cookie(app.url, LOGIN_COOKIE_KEY) };
}

/** auth.me through the real HTTP tRPC endpoint with the browser's cookies. */
async function me(browser: TestBrowser) {
  const response = await browser.get(`${app.url}/trpc/auth.me`);
  const body = (await response.json()) as { result: { data: { json: Record<string, unknown> | null } } };
  return body.result.data.json;
}

const flowKey = (state: string) => `${deps.config.redisPrefix}:oidc:${state}`;
const em = () => deps.orm.em.fork();

async function userWithSession(email: string | null) {
  const fork = em();
  const user = newUser(fork, { email, passwordHash: null, language: null });
  await fork.flush();
  const session = await createSession(fork, user, { ip: null, userAgent: null });
  const browser = new TestBrowser();
  browser.setCookie(app.url, LOGIN_COOKIE_KEY, session.token);
  return { user, browser };
}

describe('sign-in with the OpenID Connect issuer', () => {
  const alice = { sub: 'alice-sub', email: 'Alice@Idp.test', email_verified: true };

  test('a new identity creates a user and a binding, and the session cookie signs in', async () => {
    const { browser, location, token } = await signIn(alice, '?next=/highlights');
    expect(location).toBe('/highlights');
    expect(token).toBeTruthy();
    expect(await me(browser)).toMatchObject({ email: 'alice@idp.test', hasPassword: false, anonymous: true });
    const binding = await em().findOneOrFail(
      AuthBinding,
      { provider: 'google', subject: 'alice-sub' },
      { populate: ['user'] },
    );
    expect(binding.email).toBe('alice@idp.test');
    expect((binding.user as User).email).toBe('alice@idp.test');
  });

  test('signing in again reaches the same user', async () => {
    const before = await em().count(User);
    const first = await me((await signIn(alice)).browser);
    const { browser, location } = await signIn(alice);
    expect(location).toBe('/');
    expect((await me(browser))?.accountId).toBe(first?.accountId);
    expect(await em().count(User)).toBe(before);
  });

  test('next must be a same-origin path', async () => {
    expect((await signIn(alice, '?next=//evil.test/x')).location).toBe('/');
    expect((await signIn(alice, `?next=${encodeURIComponent('https://evil.test/')}`)).location).toBe('/');
    expect((await signIn(alice, `?next=${encodeURIComponent('/\\evil.test/')}`)).location).toBe('/');
    expect((await signIn(alice, `?next=${encodeURIComponent('/a?b=1#c')}`)).location).toBe('/a?b=1#c');
  });

  test('next over the malformed-URL table, as sent and as a path: the browser stays on this app', async () => {
    for (const { label, url } of URL_CASES) {
      for (const next of [url, `/${url}`]) {
        const { location } = await signIn(alice, `?next=${queryValue(next)}`);
        expect(location, label).toMatch(/^\/(?![/\\])/);
        expect(new URL(location ?? '', app.url).origin, label).toBe(app.url);
      }
    }
  });

  test('a verified email that already has an account signs in to that account', async () => {
    const { user } = await userWithSession('carol@example.test');
    const { browser } = await signIn({ sub: 'carol-sub', email: 'carol@example.test', email_verified: true });
    expect((await me(browser))?.accountId).toBe(user.accountId);
    expect(await em().count(AuthBinding, { user: user.id, subject: 'carol-sub' })).toBe(1);
  });

  test('an unverified email is not linked nor stored on the user', async () => {
    const { user } = await userWithSession('dave@example.test');
    const { browser } = await signIn({ sub: 'dave-sub', email: 'dave@example.test', email_verified: false });
    const signedIn = await me(browser);
    expect(signedIn?.accountId).not.toBe(user.accountId);
    expect(signedIn?.email).toBeNull();
  });
});

describe('the flow refuses what it cannot trust', () => {
  const eve = { sub: 'eve-sub', email: 'eve@idp.test', email_verified: true };
  const noUser = async () => expect(await em().count(AuthBinding, { subject: 'eve-sub' })).toBe(0);

  test('a tampered state is refused', async () => {
    const browser = new TestBrowser();
    const url = await authorize(browser, eve);
    url.searchParams.set('state', `${url.searchParams.get('state')}x`);
    expect(await callback(browser, url)).toBe(FAILED);
    expect(browser.cookie(app.url, LOGIN_COOKIE_KEY)).toBeUndefined();
    await noUser();
  });

  test('a callback in a browser that did not start the flow is refused', async () => {
    const url = await authorize(new TestBrowser(), eve);
    const other = new TestBrowser();
    expect(await callback(other, url)).toBe(FAILED);
    expect(other.cookie(app.url, LOGIN_COOKIE_KEY)).toBeUndefined();
    await noUser();
  });

  test('a callback is single use, even with the state cookie kept', async () => {
    const browser = new TestBrowser();
    const url = await authorize(browser, eve);
    const state = url.searchParams.get('state') as string;
    expect(await callback(browser, url)).toBe('/');
    const replay = new TestBrowser();
    replay.setCookie(app.url, 'oidc_state', state, '/auth/oidc');
    expect(await callback(replay, url)).toBe(FAILED);
    expect(replay.cookie(app.url, LOGIN_COOKIE_KEY)).toBeUndefined();
  });

  test('an ID token whose nonce differs from the one sent is refused', async () => {
    const browser = new TestBrowser();
    const url = await authorize(browser, { ...eve, sub: 'mallory-sub' });
    const key = flowKey(url.searchParams.get('state') as string);
    const flow = JSON.parse((await deps.redis.get(key)) as string);
    await deps.redis.set(key, JSON.stringify({ ...flow, nonce: 'not-the-nonce-that-was-sent' }), 'KEEPTTL');
    expect(await callback(browser, url)).toBe(FAILED);
    expect(await em().count(AuthBinding, { subject: 'mallory-sub' })).toBe(0);
  });

  test('the flow is kept in Redis for ten minutes at most', async () => {
    const url = await authorize(new TestBrowser(), { sub: 'ttl-sub' });
    const ttl = await deps.redis.ttl(flowKey(url.searchParams.get('state') as string));
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
  });
});

describe('binding to a signed-in user', () => {
  test('intent=bind attaches the identity to the signed-in user and keeps their session', async () => {
    const { user, browser } = await userWithSession('frank@example.test');
    const token = browser.cookie(app.url, LOGIN_COOKIE_KEY);
    const url = await authorize(
      browser,
      { sub: 'frank-sub', email: 'frank@elsewhere.test', email_verified: true },
      '?intent=bind&next=/settings',
    );
    expect(await callback(browser, url)).toBe('/settings');
    expect(browser.cookie(app.url, LOGIN_COOKIE_KEY)).toBe(token);
    const binding = await em().findOneOrFail(AuthBinding, { subject: 'frank-sub' });
    expect(binding.user.id).toBe(user.id);
    expect(binding.email).toBe('frank@elsewhere.test');
  });

  test('an identity bound to another user is refused', async () => {
    const { user, browser } = await userWithSession(null);
    const url = await authorize(browser, { sub: 'frank-sub' }, '?intent=bind');
    expect(await callback(browser, url)).toBe(FAILED);
    expect(await em().count(AuthBinding, { user: user.id })).toBe(0);
  });

  test('binding needs a session at start and the same one at the callback', async () => {
    const signedOut = new TestBrowser();
    const start = await signedOut.get(`${app.url}/auth/oidc/start?intent=bind`);
    expect(start.headers.get('location')).toBe(FAILED);

    const { user, browser } = await userWithSession(null);
    const url = await authorize(browser, { sub: 'grace-sub' }, '?intent=bind');
    const someoneElse = await userWithSession(null);
    browser.setCookie(
      app.url,
      LOGIN_COOKIE_KEY,
      someoneElse.browser.cookie(app.url, LOGIN_COOKIE_KEY) as string,
    );
    expect(await callback(browser, url)).toBe(FAILED);
    expect(await em().count(AuthBinding, { user: user.id })).toBe(0);
  });
});

describe('without OIDC configured', () => {
  test('providers() leaves google out, and the routes are not there', async () => {
    const configured = await callerFor(deps).auth.providers();
    expect(configured.loginTypes).toContain('google');

    const bare = { ...deps, config: { ...deps.config, oidc: undefined } };
    const providers = await callerFor(bare).auth.providers();
    expect(providers.loginTypes).not.toContain('google');
    expect(providers.oidcName).toBeNull();

    const server = await startServer(bare);
    try {
      expect((await fetch(`${server.url}/auth/oidc/start`, { redirect: 'manual' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
