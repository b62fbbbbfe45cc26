import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { createApiToken } from '../../server/domain/openapi/api-tokens.ts';
import { translator } from '../../server/i18n.ts';
import { LOGIN_COOKIE_KEY } from '../../src/constants.ts';
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { signedInUser } from '../helpers/users.ts';

// One language a request is answered in, on every front: under REGION=chn (Chinese by default)
// an account whose language is English reads English, unless the request asks for another.

let deps: TestDeps;
let app: Express;
beforeAll(async () => {
  deps = await createTestDeps({ REGION: 'chn' });
  app = createApp(deps);
});
afterAll(() => deps.close());

const english = translator('en');
const german = translator('de');
const CJK = /[\u4e00-\u9fff]/;

async function englishUser() {
  return signedInUser(deps, undefined, 'UTC', 'en');
}

describe('signed in as an English account under REGION=chn', () => {
  test('tRPC: errors are message keys, which the client shows in the account’s language', async () => {
    const user = await englishUser();
    const input = encodeURIComponent(JSON.stringify({ json: { id: newId() } }));
    const res = await request(app)
      .get(`/trpc/notes.get?input=${input}`)
      .set('Cookie', `${LOGIN_COOKIE_KEY}=${user.token}`)
      .expect(404);
    expect(res.body.error.json.data).toMatchObject({ appCode: 'NOT_FOUND', messageKey: 'errors.notFound' });
    expect(JSON.stringify(res.body)).not.toMatch(CJK);
  });

  test('Open API: the message is English; Accept-Language overrides it', async () => {
    const user = await englishUser();
    const { token } = await createApiToken(deps.orm.em.fork(), deps.config, user.user, {
      name: 'test',
      scopes: ['read', 'write', 'daily'],
      expiresInDays: null,
    });
    const missing = () =>
      request(app).get(`/openapi/v1/notes/${newId()}`).set('Authorization', `Bearer ${token}`).expect(404);
    expect((await missing()).body.message).toBe(english('errors.notFound'));
    expect((await missing().set('Accept-Language', 'de-DE,de;q=0.9')).body.message).toBe(
      german('errors.notFound'),
    );
  });

  test('sync fronts (/api/sync/v1 and the seed’s /apix): English; Accept-Language overrides it', async () => {
    const user = await englishUser();
    const clientId = `c_${newId()}`;
    const call = (path: string, body: object, token?: string) => {
      const req = request(app).post(`/api/sync/v1${path}`);
      if (token) req.set('Authorization', `Bearer ${token}`);
      return req.send(body);
    };
    await call('/token', { clientId }).expect(202);
    await user.caller.sync.confirmDevice({ serviceId: 7, clientId });
    const { token } = (await call('/token', { clientId }).expect(200)).body as { token: string };
    await call('/init', { clientId }, token).expect(200);

    const badCursor = () => call('/download', { clientId, cursor: 'not a cursor', noteIds: [] }, token);
    const plain = await badCursor();
    expect(plain.status).toBeGreaterThanOrEqual(400);
    expect(plain.body.error.message).toBe(english(plain.body.error.messageKey ?? 'errors.syncCursorInvalid'));
    expect(plain.body.error.message).not.toMatch(CJK);
    const asked = await badCursor().set('Accept-Language', 'de');
    expect(asked.body.error.message).toBe(german(asked.body.error.messageKey ?? 'errors.syncCursorInvalid'));

    // The seed's front: a call without its client header, refused once the token's user is known.
    const seedInit = () =>
      request(app)
        .post('/apix/openapi/wucai/sync/init?appid=20&ep=obsidianwucai&version=24.1.14&reqtime=1')
        .set('AUTHORIZATION', `Token ${token}`)
        .send({ v: 240114, serviceId: 7, lastCursor2: '' });
    const seed = await seedInit();
    expect(seed.body.message).toBe(english('errors.syncClientInvalid'));
    expect((await seedInit().set('Accept-Language', 'de')).body.message).toBe(
      german('errors.syncClientInvalid'),
    );
  });
});

describe('signed out under REGION=chn', () => {
  test('as today: the request’s language, else English', async () => {
    const unknown = () => request(app).get('/openapi/v1/notes').set('Authorization', 'Bearer mapi_unknown');
    expect((await unknown().expect(401)).body.message).toBe(english('errors.apiTokenInvalid'));
    expect((await unknown().set('Accept-Language', 'zh-CN').expect(401)).body.message).toMatch(CJK);
  });
});
