import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { OPERATOR_AUTHORIZATION, TEST_METRICS_TOKEN } from '../helpers/operator.ts';

let deps: TestDeps;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  deps = await createTestDeps({ REGION: 'chn', METRICS_TOKEN: TEST_METRICS_TOKEN });
  app = createApp(deps);
});
afterAll(() => deps.close());

describe('HTTP surface', () => {
  test('/healthz says ok to anyone, and which checks passed to the operator', async () => {
    expect((await request(app).get('/healthz').expect(200)).body).toEqual({ ok: true });
    const operator = await request(app).get('/healthz').set('Authorization', OPERATOR_AUTHORIZATION);
    expect(operator.status).toBe(200);
    expect(operator.body).toEqual({ ok: true, checks: { postgres: true, redis: true } });
  });

  test('security headers: CSP forbids framing, no sniffing, a referrer policy, no x-powered-by', async () => {
    const res = await request(app).get('/login').expect(200);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  test('responses are compressed when the client accepts it', async () => {
    const res = await request(app)
      .get('/metrics')
      .set('Authorization', OPERATOR_AUTHORIZATION)
      .set('Accept-Encoding', 'gzip')
      .expect(200);
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  test('every client route gets the app page with the region written in', async () => {
    const res = await request(app).get('/some/unknown/path').expect(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toContain('<meta name="margin-region" content="chn">');
  });

  test('tRPC answers with superjson', async () => {
    const res = await request(app).get('/trpc/system.info').expect(200);
    expect(res.body.result.data.json).toMatchObject({ region: 'chn', signedIn: false });
  });

  test('an unknown procedure is a 404 with a message key and no internals', async () => {
    const res = await request(app).get('/trpc/nope.nothing').expect(404);
    expect(res.body.error.json.data).toMatchObject({ appCode: 'NOT_FOUND', messageKey: 'errors.notFound' });
    expect(JSON.stringify(res.body)).not.toMatch(/stack|at \w+ \(/);
  });

  test('bodies over the limit are refused with 413', async () => {
    const huge = JSON.stringify({ json: { x: 'a'.repeat(7 * 1024 * 1024) } });
    const res = await request(app)
      .post('/trpc/system.info')
      .set('Content-Type', 'application/json')
      .send(huge);
    expect(res.status).toBe(413);
    expect(res.text).not.toContain('PayloadTooLargeError');
  });

  test('/metrics exposes the latency histogram by route and queue depths', async () => {
    await request(app).get('/trpc/system.info');
    const res = await request(app).get('/metrics').set('Authorization', OPERATOR_AUTHORIZATION).expect(200);
    expect(res.text).toMatch(/http_request_duration_seconds_bucket\{[^}]*route="trpc:system.info"/);
    expect(res.text).toMatch(/queue_jobs\{queue="clip",state="waiting"\} 0/);
  });
});
