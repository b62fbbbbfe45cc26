// Links back to Margin follow the request's Host when PUBLIC_URL is unset, so a Host the server
// is not listening at is refused (421) on every front before anything can be built from it; the
// addresses it does listen at keep working, X-Forwarded-Host is not believed even from a trusted
// proxy, and with PUBLIC_URL every link uses it whatever the Host says.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { signedInUser } from '../helpers/users.ts';

const FORGED = 'evil.example';

let deps: TestDeps;
let cookie: string;
const servers: RunningServer[] = [];

beforeAll(async () => {
  deps = await createTestDeps();
  cookie = `logininfo=${(await signedInUser(deps)).token}`;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await deps.close();
});

/** The real app on a loopback port, with these address settings parsed as at start. */
async function serve(env: { PUBLIC_URL?: string; TRUST_PROXY?: string; HOST?: string } = {}) {
  const { publicUrl, trustProxy, host } = loadConfig(env);
  const server = await startServer({ ...deps, config: { ...deps.config, publicUrl, trustProxy, host } });
  servers.push(server);
  return { url: server.url, port: new URL(server.url).port };
}

/** Asks for a QR sign-in ticket: its answer carries a link made from the origin. */
const qrLink = (url: string, host: string, headers: Record<string, string> = {}) =>
  request(url)
    .post('/trpc/auth.qrCreate')
    .set('Host', host)
    .set(headers)
    .set('Content-Type', 'application/json')
    .send({ json: null });

/** A request of every front, most of which answer with or redirect to a link to Margin. */
const FRONTS: { method: 'get' | 'post'; path: string }[] = [
  { method: 'get', path: '/' },
  { method: 'get', path: '/login' },
  { method: 'post', path: '/trpc/auth.qrCreate' },
  { method: 'post', path: '/trpc/sync.preview' },
  { method: 'post', path: '/trpc/membership.createOrder' },
  { method: 'get', path: '/trpc/system.info' },
  { method: 'get', path: '/auth/oidc/start' },
  { method: 'get', path: '/api/export/markdown.zip' },
  { method: 'post', path: '/api/sync/v1/download' },
  { method: 'post', path: '/apix/openapi/wucai/sync/download' },
  { method: 'post', path: '/page/auth/openapi/gettoken' },
  { method: 'get', path: '/openapi/v1/notes' },
  { method: 'get', path: '/openapi/docs' },
  { method: 'post', path: '/pay/notify/stripe' },
  { method: 'post', path: '/upload' },
  { method: 'get', path: '/files/images/x.png' },
];

describe('without PUBLIC_URL', () => {
  test('a Host the server does not listen at is refused on every front, and no answer carries it', async () => {
    const { url, port } = await serve();
    for (const host of [
      FORGED,
      `${FORGED}:${port}`,
      `127.0.0.1:${Number(port) + 1}`,
      `127.0.0.1.${FORGED}`,
      '',
    ]) {
      for (const { method, path } of FRONTS) {
        const res = await request(url)
          [method](path)
          .set('Host', host)
          .set('Cookie', cookie)
          .set('Content-Type', 'application/json')
          .send(method === 'post' ? '{}' : undefined);
        const what = `${method.toUpperCase()} ${path} Host: ${host}`;
        expect(res.status, what).toBe(421);
        expect(res.body.error, what).toBe('errors.hostNotServed');
        expect(JSON.stringify([res.headers, res.text]), what).not.toContain(FORGED);
      }
    }
  });

  test('the refusal says what is wrong in the caller’s language, and nothing of the server', async () => {
    const { url } = await serve();
    const english = await request(url).get('/login').set('Host', FORGED).expect(421);
    expect(english.body).toEqual({
      error: 'errors.hostNotServed',
      message: expect.stringContaining('PUBLIC_URL'),
    });
    const german = await request(url)
      .get('/login')
      .set('Host', FORGED)
      .set('Accept-Language', 'de')
      .expect(421);
    expect(german.body.message).toMatch(/Adresse/);
  });

  test('the listening address and, on loopback, localhost’s names keep working, and links use them', async () => {
    const { url, port } = await serve();
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`, `[::1]:${port}`]) {
      const res = await qrLink(url, host).expect(200);
      expect(res.body.result.data.json.url, host).toMatch(
        new RegExp(`^http://${host.replace(/[[\]]/g, '\\$&')}/qrlogin/`, 'i'),
      );
    }
  });

  test('a HOST that names the machine is an address it listens at', async () => {
    const { url, port } = await serve({ HOST: 'margin.lan' });
    const res = await qrLink(url, `margin.lan:${port}`).expect(200);
    expect(res.body.result.data.json.url).toMatch(new RegExp(`^http://margin\\.lan:${port}/qrlogin/`));
    await qrLink(url, `other.lan:${port}`).expect(421);
  });

  test('behind a trusted proxy, X-Forwarded-Host puts nothing into links', async () => {
    const { url, port } = await serve({ TRUST_PROXY: 'loopback' });
    const res = await qrLink(url, `127.0.0.1:${port}`, {
      'X-Forwarded-Host': FORGED,
      'X-Forwarded-Proto': 'https',
    });
    expect(res.status).toBe(200);
    expect(res.body.result.data.json.url).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${port}/qrlogin/`));
    expect(res.text).not.toContain(FORGED);
    await qrLink(url, FORGED, { 'X-Forwarded-Host': `127.0.0.1:${port}` }).expect(421);
  });
});

describe('with PUBLIC_URL', () => {
  test('any Host is answered, and every link uses PUBLIC_URL', async () => {
    const { url } = await serve({ PUBLIC_URL: 'https://margin.example.test' });
    const res = await qrLink(url, FORGED).expect(200);
    expect(res.body.result.data.json.url).toMatch(/^https:\/\/margin\.example\.test\/qrlogin\//);
    expect(res.text).not.toContain(FORGED);
  });
});
