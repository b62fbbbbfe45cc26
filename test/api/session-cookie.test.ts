import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { userWithPassword } from '../helpers/users.ts';

let deps: TestDeps;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  // Requests come from loopback; trusting it as the proxy lets X-Forwarded-Proto say https.
  deps = await createTestDeps({ TRUST_PROXY: 'loopback' });
  app = createApp(deps);
  await userWithPassword(deps, 'http@example.test', 'http password');
});
afterAll(() => deps.close());

const login = (rememberMe = false) =>
  request(app)
    .post('/trpc/auth.login')
    .set('Content-Type', 'application/json')
    .send({ json: { email: 'http@example.test', password: 'http password', rememberMe } });

describe('the logininfo cookie on the HTTP response', () => {
  test('HttpOnly, SameSite=Lax, one day, path /', async () => {
    const res = await login().expect(200);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^logininfo=[\w-]{40,};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Max-Age=86400');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure');
  });

  test('"remember me" lasts thirty days; behind HTTPS the cookie is Secure', async () => {
    const res = await login(true).set('X-Forwarded-Proto', 'https').expect(200);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`Max-Age=${30 * 86400}`);
    expect(cookie).toContain('Secure');
  });

  test('the cookie signs the browser in; signing out clears it and the token stops working', async () => {
    const cookie = String((await login()).headers['set-cookie']).split(';')[0] as string;
    const me = await request(app).get('/trpc/auth.me').set('Cookie', cookie).expect(200);
    expect(me.body.result.data.json).toMatchObject({ email: 'http@example.test' });
    const out = await request(app)
      .post('/trpc/auth.logout')
      .set('Cookie', cookie)
      .set('Content-Type', 'application/json')
      .send({});
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/logininfo=;/);
    const after = await request(app).get('/trpc/auth.me').set('Cookie', cookie).expect(200);
    expect(after.body.result.data.json).toBeNull();
  });

  test('a wrong password is "Login Failed" with 401 and no cookie', async () => {
    const res = await request(app)
      .post('/trpc/auth.login')
      .set('Content-Type', 'application/json')
      .send({ json: { email: 'http@example.test', password: 'nope', rememberMe: false } })
      .expect(401);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body.error.json.data.messageKey).toBe('toast.loginFailed');
  });

  test("a mutation sent as a plain form (a cross-site request) is refused, in tRPC's envelope", async () => {
    const res = await request(app).post('/trpc/auth.logout').set('Content-Type', 'text/plain').send('{}');
    expect(res.status).toBe(415);
    expect(res.body.error.json.data).toMatchObject({
      appCode: 'BAD_REQUEST',
      messageKey: 'errors.invalidInput',
    });
  });

  test('with an https PUBLIC_URL the cookie is Secure even when no proxy is trusted', async () => {
    const httpsDeps = await createTestDeps({ PUBLIC_URL: 'https://margin.example' });
    try {
      await userWithPassword(httpsDeps, 'tls@example.test', 'tls password');
      const res = await request(createApp(httpsDeps))
        .post('/trpc/auth.login')
        .set('Content-Type', 'application/json')
        .send({ json: { email: 'tls@example.test', password: 'tls password', rememberMe: false } })
        .expect(200);
      expect(String(res.headers['set-cookie'])).toContain('Secure');
    } finally {
      await httpsDeps.close();
    }
  });
});
