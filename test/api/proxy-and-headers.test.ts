// Deployment defaults over real HTTP: which client address the app believes (X-Forwarded-For
// only from a configured proxy), HSTS only for an https PUBLIC_URL, and the CSP's img-src.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { findSignedIn } from '../../server/domain/auth/session.service.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { userWithPassword } from '../helpers/users.ts';

let deps: TestDeps;

/** The app with these proxy and address settings (parsed as at start) and the test's others. */
function appWith(env: { TRUST_PROXY?: string; PUBLIC_URL?: string } = {}) {
  const { trustProxy, publicUrl } = loadConfig(env);
  return createApp({ ...deps, config: { ...deps.config, trustProxy, publicUrl } });
}

beforeAll(async () => {
  deps = await createTestDeps();
  await userWithPassword(deps, 'proxy@example.test', 'proxy password');
});
afterAll(() => deps.close());

/** Signs in through `app` claiming to come from `forwardedFor`; the address the session records. */
async function recordedIp(app: ReturnType<typeof createApp>, forwardedFor: string): Promise<string | null> {
  const res = await request(app)
    .post('/trpc/auth.login')
    .set('Content-Type', 'application/json')
    .set('X-Forwarded-For', forwardedFor)
    .send({ json: { email: 'proxy@example.test', password: 'proxy password', rememberMe: false } })
    .expect(200);
  const token = String(res.headers['set-cookie']).match(/^logininfo=([^;]+)/)?.[1];
  const signedIn = await findSignedIn(deps.orm.em.fork(), token);
  return signedIn?.session.ip ?? null;
}

describe('X-Forwarded-For', () => {
  test('is ignored by default: the address is the connection’s, whatever the header says', async () => {
    expect(deps.config.trustProxy).toBe(false);
    const ip = await recordedIp(appWith(), '203.0.113.50');
    expect(ip).not.toBe('203.0.113.50');
    expect(ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
  });

  test('is honoured from a configured proxy', async () => {
    expect(await recordedIp(appWith({ TRUST_PROXY: 'loopback' }), '203.0.113.51')).toBe('203.0.113.51');
    // One hop: the address the proxy (here loopback) appended, not what the client wrote before it.
    expect(await recordedIp(appWith({ TRUST_PROXY: '1' }), '198.51.100.9, 203.0.113.52')).toBe(
      '203.0.113.52',
    );
  });

  test('is ignored from a proxy that is not the configured one', async () => {
    const ip = await recordedIp(appWith({ TRUST_PROXY: '10.0.0.0/8' }), '203.0.113.53');
    expect(ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
  });
});

describe('HSTS', () => {
  test('only when PUBLIC_URL is https', async () => {
    const https = await request(appWith({ PUBLIC_URL: 'https://margin.example.test' })).get('/login');
    expect(https.headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
    expect(https.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    for (const app of [appWith(), appWith({ PUBLIC_URL: 'http://margin.example.test' })]) {
      const res = await request(app).get('/login');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    }
  });
});

describe('Content-Security-Policy', () => {
  test('img-src: our origin and data: only (clipped images are served by Margin; no remote host, no blob:)', async () => {
    const res = await request(appWith()).get('/login');
    const imgSrc = String(res.headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('img-src '));
    expect(imgSrc).toBe("img-src 'self' data:");
  });
});
