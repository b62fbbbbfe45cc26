import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { callApi, PushCallError } from '../../server/domain/sync/push/push-http.ts';
import { startSite, type TestSite } from '../helpers/site.ts';

// The push tools' calls go through the guarded fetcher as API calls: a body and headers of their
// own, every status answered, and no redirect followed, so a key never travels to another host.

let site: TestSite;
let other: TestSite;
const seen: { path: string; authorization: string | undefined; body: string }[] = [];

beforeAll(async () => {
  const record = (req: IncomingMessage, body: string) =>
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
  other = await startSite({
    '/landing': (req, res) => {
      record(req, '');
      res.setHeader('content-type', 'application/json');
      res.end('{"stolen":true}');
    },
  });
  site = await startSite({
    '/api': (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        record(req, Buffer.concat(chunks).toString('utf8'));
        res.statusCode = 418;
        res.setHeader('content-type', 'application/json');
        res.end('{"error":"teapot","retry_after":3}');
      });
    },
    '/moved': (req, res) => {
      record(req, '');
      res.statusCode = 307;
      res.setHeader('location', `${other.origin}/landing`);
      res.end();
    },
  });
});
afterAll(async () => {
  await site?.close();
  await other?.close();
});

const env = () => ({ allowedTargets: [site.target, other.target] });

test('a call sends its method, headers and JSON body, and an error status is answered with its body', async () => {
  const reply = await callApi(
    'test',
    `${site.origin}/api`,
    { method: 'POST', headers: { authorization: 'Bearer k' }, json: { name: 'x' } },
    env(),
  );
  expect(reply).toEqual({ status: 418, body: { error: 'teapot', retry_after: 3 } });
  expect(seen.at(-1)).toEqual({ path: '/api', authorization: 'Bearer k', body: '{"name":"x"}' });
});

test('a redirect is answered, not followed: the key never reaches the other host', async () => {
  const before = seen.length;
  const reply = await callApi(
    'test',
    `${site.origin}/moved`,
    { method: 'POST', headers: { authorization: 'Bearer k' }, json: {} },
    env(),
  );
  expect(reply.status).toBe(307);
  expect(seen.slice(before).map((s) => s.path)).toEqual(['/moved']);
});

test('a target the operator has not allowed gets no request: the call fails as unanswered', async () => {
  const before = seen.length;
  await expect(
    callApi('test', `${site.origin}/api`, { method: 'POST', json: {} }, { allowedTargets: [] }),
  ).rejects.toBeInstanceOf(PushCallError);
  expect(seen.length).toBe(before);
});
