import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setClock } from '../../server/clock.ts';
import { Note, Upload } from '../../server/db/entities/index.ts';
import { LIMITS } from '../../server/domain/rate-limit.ts';
import { UPLOAD_POLICY_TTL_MS } from '../../server/domain/uploads/uploads.service.ts';
import { OPERATIONS } from '../../server/openapi/operations/index.ts';
import { EXTENSION_CLIENT_HEADER, type UploadPolicy } from '../../src/schemas/extension.ts';
import { createTestDeps, TEST_NOW, type TestDeps } from '../helpers/deps.ts';
import { extensionUser, pageFile, postUploadForm } from '../helpers/extension.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { setMembership } from '../helpers/membership.ts';
import { apiFixture, apiUser, callOpenApi, SAMPLE_REQUESTS, sampleRequest } from '../helpers/openapi.ts';
import { article } from '../helpers/site.ts';
import { fingerprint } from '../security/router-inventory.ts';

// The browser extension's side of the server: its device-flow token on the Open API (what it may
// do, walked over every operation; the minimum version, revoking), and saving rendered pages through upload policies with
// the local store and with an S3-compatible one (s3rver).

const PARAGRAPHS = [
  'A page only its reader could see: behind a sign-in, and drawn by scripts after it loaded.',
  'The extension sends the page as the browser rendered it, so nothing has to be fetched again.',
];

/** The HTML a note was saved from. */
async function originalHtml(deps: TestDeps, noteId: string): Promise<string | undefined> {
  const [row] = await deps.orm.em
    .fork()
    .execute<{ original_html: string }[]>('select original_html from note_content where note_id = ?', [
      noteId,
    ]);
  return row?.original_html;
}

describe('with the local store', () => {
  let deps: TestDeps;
  let server: RunningServer;

  beforeAll(async () => {
    deps = await createTestDeps({ MEMBERSHIP: 'on' });
    server = await startServer(deps);
  });
  afterAll(async () => {
    await server.close();
    await deps.close();
  });

  test('the device flow gives the extension a token of its own: listed, free of the PRO gate, useless for pulling', async () => {
    const user = await extensionUser(deps, server.url);
    expect(user.extensionToken).toMatch(/^msync_/);
    const tokens = await user.caller.sync.tokens();
    expect(tokens.map((t) => [t.app, t.name])).toEqual([['extension', 'Browser extension']]);
    // A free account on a server with membership on: clipping and highlighting are every plan's.
    const saved = await callOpenApi(server.url, user.headers, 'POST', '/extension/notes', {
      url: 'https://example.test/free',
    });
    expect(saved.status).toBe(201);
    // Pulling, as the note tools do, is not the extension's.
    const pull = await fetch(`${server.url}/api/sync/v1/init`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'extension-client-1' }),
    });
    expect(pull.status).toBe(401);
  });

  /** Every table's rows but the tokens' (a call notes when and by which client a token was used). */
  async function rowsNow() {
    const { sync_token: _sync, api_token: _api, ...rows } = await fingerprint(deps);
    return rows;
  }

  const extensionOnes = OPERATIONS.filter((op) => op.extension);
  const theRest = OPERATIONS.filter((op) => !op.extension);

  test('every operation has a sample request; the extension reaches its own few and the rest is walked', () => {
    expect(Object.keys(SAMPLE_REQUESTS).sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort());
    // What extension/background.ts calls, and nothing more.
    expect(extensionOnes.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort()).toEqual([
      'DELETE /highlights/{id}',
      'GET /extension/page',
      'GET /extension/settings',
      'PATCH /highlights/{id}',
      'POST /extension/notes',
      'POST /extension/uploads',
      'POST /extension/uploads/complete',
      'POST /highlights',
    ]);
    expect(theRest.length).toBeGreaterThan(15);
  });

  test.each(['free', 'pro'] as const)(
    'a %s account’s extension token reaches the extension’s operations and no other, whatever client it claims',
    async (kind) => {
      const user = await extensionUser(deps, server.url);
      await setMembership(deps, user.user.id, kind);
      const fixture = await apiFixture(deps, user);
      const claims = [user.headers, { ...user.headers, [EXTENSION_CLIENT_HEADER]: 'firefox/99.0.0' }];
      for (const op of theRest) {
        const sample = await sampleRequest(op, server.url, user.headers, fixture);
        for (const headers of claims) {
          const before = await rowsNow();
          const refused = await callOpenApi(server.url, headers, op.method, sample.route, sample.body);
          const where = `${op.operationId} as ${headers[EXTENSION_CLIENT_HEADER]}`;
          expect(refused.status, where).toBe(403);
          expect(refused.body, where).toMatchObject({ code: 403, data: null, error: { type: 'forbidden' } });
          expect(refused.body.message, where).toBe(
            'This is the browser extension’s token: it saves pages and highlights them, nothing else. ' +
              'For the API, create a token under Settings → API and daily note.',
          );
          expect(await rowsNow(), where).toEqual(before);
        }
      }
      for (const op of extensionOnes) {
        // Each on rows of its own: a delete or a spent upload must not decide the next one.
        const sample = await sampleRequest(op, server.url, user.headers, await apiFixture(deps, user));
        const served = await callOpenApi(server.url, user.headers, op.method, sample.route, sample.body);
        expect(served.status, `${op.operationId} ${served.body.message}`).toBe(op.status ?? 200);
        expect(served.body.code).toBe(1);
      }
    },
  );

  test('a PRO account’s API token reaches every operation, the extension’s too', async () => {
    const user = await apiUser(deps, ['read', 'write', 'daily'], 'pro');
    const headers = { Authorization: `Bearer ${user.apiToken}` };
    for (const op of OPERATIONS) {
      const sample = await sampleRequest(op, server.url, headers, await apiFixture(deps, user));
      const served = await callOpenApi(server.url, headers, op.method, sample.route, sample.body);
      expect(served.status, `${op.operationId} ${served.body.message}`).toBe(op.status ?? 200);
      expect(served.body.code).toBe(1);
    }
  });

  test('an extension older than the minimum is told to update, in the account language', async () => {
    const user = await extensionUser(deps, server.url, '25.4.99');
    const old = await callOpenApi(server.url, user.headers, 'GET', '/extension/settings');
    expect(old.status).toBe(403);
    expect(old.body.message).toBe(
      `Plugin version is too low, please update (25.4.99 -> ${deps.config.extensionMinVersion})`,
    );
    const unnamed = await callOpenApi(
      server.url,
      { Authorization: user.headers.Authorization },
      'GET',
      '/extension/settings',
    );
    expect(unnamed.status).toBe(403);
    const newer = { ...user.headers, [EXTENSION_CLIENT_HEADER]: 'firefox/25.10.1' };
    expect((await callOpenApi(server.url, newer, 'GET', '/extension/settings')).status).toBe(200);
  });

  test('the settings page’s choices reach the extension', async () => {
    const user = await extensionUser(deps, server.url);
    await user.caller.settings.update({
      textTooltipStyle: 4,
      c3: '#123456',
      shortcuts: { highlight: 'Ctrl+1', annotate: 'Ctrl+2', save: 'Ctrl+3' },
    });
    const { body } = await callOpenApi(server.url, user.headers, 'GET', '/extension/settings');
    expect(body.data).toMatchObject({
      textTooltipStyle: 4,
      colours: { c3: '#123456' },
      shortcuts: { highlight: 'Ctrl+1', annotate: 'Ctrl+2', save: 'Ctrl+3' },
      language: 'en',
    });
  });

  test('a revoked token is refused at once', async () => {
    const user = await extensionUser(deps, server.url);
    const [token] = await user.caller.sync.tokens();
    await user.caller.sync.revokeToken({ id: token?.id as number });
    expect((await callOpenApi(server.url, user.headers, 'GET', '/extension/settings')).status).toBe(401);
  });

  async function policyFor(headers: Record<string, string>, url: string): Promise<UploadPolicy> {
    const answer = await callOpenApi(server.url, headers, 'POST', '/extension/uploads', { url });
    expect(answer.status).toBe(201);
    return answer.body.data;
  }

  const storedNotes = (userId: number) => deps.orm.em.fork().count(Note, { user: userId });

  test('a policy used late, altered, for another key or for a larger file stores nothing', async () => {
    const user = await extensionUser(deps, server.url);
    const url = 'https://example.test/refused';
    const file = pageFile(url, article('Refused', PARAGRAPHS));
    const policy = await policyFor(user.headers, url);

    const decoded = JSON.parse(Buffer.from(policy.policy, 'base64').toString('utf8'));
    decoded.conditions[1][2] = 100 * 1024 * 1024;
    const widened = Buffer.from(JSON.stringify(decoded)).toString('base64');
    expect((await postUploadForm(policy, file, { policy: widened })).status).toBe(403);
    expect(
      (await postUploadForm(policy, file, { key: `${user.user.id}/uploads/another-key-1.txt` })).status,
    ).toBe(403);
    expect((await postUploadForm(policy, file, { Signature: 'AAAA' })).status).toBe(403);

    // A small limit of its own (as a policy for a small file would have) is kept.
    const small = await deps.storage.uploadForm({
      key: policy.key,
      maxBytes: 10,
      expiresAt: new Date(Date.parse(TEST_NOW) + 3_600_000),
      origin: server.url,
    });
    expect((await postUploadForm({ ...policy, fields: small.fields }, file)).status).toBe(403);

    setClock(new Date(Date.now() + UPLOAD_POLICY_TTL_MS + 1000));
    try {
      expect((await postUploadForm(policy, file)).status).toBe(403);
    } finally {
      setClock(TEST_NOW);
    }
    expect(await deps.storage.read(policy.key, 1e9)).toBeNull();
    const complete = await callOpenApi(server.url, user.headers, 'POST', '/extension/uploads/complete', {
      key: policy.key,
    });
    expect(complete.status).toBe(404);
    expect(complete.body.message).toBe('That upload was not found. Save the page again.');
    expect(await storedNotes(user.user.id)).toBe(0);
  });

  test('a file that is not a page upload is refused with nothing saved, and can be uploaded again', async () => {
    const user = await extensionUser(deps, server.url);
    const url = 'https://example.test/not-a-page';
    const policy = await policyFor(user.headers, url);
    expect((await postUploadForm(policy, 'no header line')).status).toBe(200);
    const refused = await callOpenApi(server.url, user.headers, 'POST', '/extension/uploads/complete', {
      key: policy.key,
    });
    expect(refused.status).toBe(422);
    expect(await storedNotes(user.user.id)).toBe(0);
    expect((await postUploadForm(policy, pageFile(url, article('Now a page', PARAGRAPHS)))).status).toBe(200);
    expect(
      (
        await callOpenApi(server.url, user.headers, 'POST', '/extension/uploads/complete', {
          key: policy.key,
        })
      ).status,
    ).toBe(200);
    expect(await storedNotes(user.user.id)).toBe(1);
  });

  test('the callback called many times at once saves one note, and the file is then removed', async () => {
    const user = await extensionUser(deps, server.url);
    const url = 'https://example.test/at-once';
    const policy = await policyFor(user.headers, url);
    expect((await postUploadForm(policy, pageFile(url, article('At once', PARAGRAPHS)))).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        callOpenApi(server.url, user.headers, 'POST', '/extension/uploads/complete', { key: policy.key }),
      ),
    );
    const succeeded = answers.filter((a) => a.status === 200);
    expect(succeeded.length).toBeGreaterThan(0);
    // Those not first either answer the same note or ask to try again in a moment.
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    expect(new Set(succeeded.map((a) => a.body.data.note.id)).size).toBe(1);
    expect(succeeded.filter((a) => a.body.data.created)).toHaveLength(1);
    expect(await storedNotes(user.user.id)).toBe(1);
    const em = deps.orm.em.fork();
    const upload = await em.findOneOrFail(Upload, { key: policy.key });
    expect(upload.noteId).toBe(succeeded[0]?.body.data.note.id);
    expect(await originalHtml(deps, upload.noteId as string)).toContain(PARAGRAPHS[0]);
    expect(await deps.storage.read(policy.key, 1e9)).toBeNull();
  });

  test('another account’s extension sees none of it: not the page, not the upload, not the highlights', async () => {
    const owner = await extensionUser(deps, server.url);
    const stranger = await extensionUser(deps, server.url);
    const url = 'https://example.test/private';
    const policy = await policyFor(owner.headers, url);
    expect((await postUploadForm(policy, pageFile(url, article('Private', PARAGRAPHS)))).status).toBe(200);

    // The stranger's own policy cannot carry the owner's key, nor complete it.
    const theirs = await policyFor(stranger.headers, url);
    expect((await postUploadForm(theirs, 'x', { key: policy.key })).status).toBe(403);
    const taken = await callOpenApi(server.url, stranger.headers, 'POST', '/extension/uploads/complete', {
      key: policy.key,
    });
    expect(taken.status).toBe(404);
    expect(await storedNotes(stranger.user.id)).toBe(0);

    const done = await callOpenApi(server.url, owner.headers, 'POST', '/extension/uploads/complete', {
      key: policy.key,
    });
    expect(done.status).toBe(200);
    const created = await callOpenApi(server.url, owner.headers, 'POST', '/highlights', {
      noteId: done.body.data.note.id,
      coreType: 1,
      // As the extension sends them: selectors over the live page (the note is not parsed yet).
      selectors: {
        quote: { type: 'TextQuoteSelector', exact: 'second paragraph', prefix: 'The ', suffix: ' explains' },
        position: { type: 'TextPositionSelector', start: 4, end: 20 },
      },
      slotId: 1,
      style: 1,
    });
    expect(created.status).toBe(201);

    const seen = await callOpenApi(
      server.url,
      stranger.headers,
      'GET',
      `/extension/page?url=${encodeURIComponent(url)}`,
    );
    expect(seen.body.data).toEqual({ note: null, highlights: [] });
    const id = created.body.data.id;
    expect(
      (await callOpenApi(server.url, stranger.headers, 'PATCH', `/highlights/${id}`, { slotId: 2 })).status,
    ).toBe(404);
    expect((await callOpenApi(server.url, stranger.headers, 'DELETE', `/highlights/${id}`)).status).toBe(404);
    const mine = await callOpenApi(
      server.url,
      owner.headers,
      'GET',
      `/extension/page?url=${encodeURIComponent(url)}`,
    );
    expect(mine.body.data.highlights.map((h: { id: string; slotId: number }) => [h.id, h.slotId])).toEqual([
      [id, 1],
    ]);
  });

  test('policies are counted per account and hour', async () => {
    const user = await extensionUser(deps, server.url);
    const statuses = await Promise.all(
      Array.from({ length: LIMITS.uploads.perUserHour.max + 5 }, (_, i) =>
        callOpenApi(server.url, user.headers, 'POST', '/extension/uploads', {
          url: `https://example.test/${i}`,
        }).then((a) => a.status),
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(LIMITS.uploads.perUserHour.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(await deps.orm.em.fork().count(Upload, { user: user.user.id })).toBe(
      LIMITS.uploads.perUserHour.max,
    );
  });
});

describe('with an S3-compatible store', () => {
  let deps: TestDeps;
  let server: RunningServer;
  let s3: S3rver;
  let s3Dir: string;

  beforeAll(async () => {
    s3Dir = mkdtempSync(path.join(tmpdir(), 'margin-s3-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: 'margin-files', configs: [] }],
    });
    const { port } = await s3.run();
    deps = await createTestDeps({
      STORAGE: 's3',
      S3_BUCKET: 'margin-files',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: '1',
    });
    server = await startServer(deps);
  });
  afterAll(async () => {
    await server.close();
    await deps.close();
    await s3.close();
    rmSync(s3Dir, { recursive: true, force: true });
  });

  test('the policy is a presigned POST to the bucket; the callback reads the object back and saves the page', async () => {
    const user = await extensionUser(deps, server.url);
    const url = 'https://example.test/s3-page';
    const answer = await callOpenApi(server.url, user.headers, 'POST', '/extension/uploads', { url });
    expect(answer.status).toBe(201);
    const policy: UploadPolicy = answer.body.data;
    expect(policy.host).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/margin-files$/);
    expect(policy.fields).toMatchObject({ key: policy.key, 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256' });
    expect(policy.signature).toBe(policy.fields['X-Amz-Signature']);
    // The signed policy bounds the size and the key (s3rver does not check POST policies; S3 does).
    const conditions = JSON.parse(Buffer.from(policy.policy, 'base64').toString('utf8')).conditions;
    expect(conditions).toEqual(
      expect.arrayContaining([['content-length-range', 0, policy.maxBytes], { key: policy.key }]),
    );

    const upload = await postUploadForm(policy, pageFile(url, article('Stored in a bucket', PARAGRAPHS)));
    expect(upload.status).toBe(200);
    expect(await deps.storage.read(policy.key, 1e9)).not.toBeNull();
    const done = await callOpenApi(server.url, user.headers, 'POST', '/extension/uploads/complete', {
      key: policy.key,
    });
    expect(done.status).toBe(200);
    expect(done.body.data.created).toBe(true);
    expect(await originalHtml(deps, done.body.data.note.id)).toContain('Stored in a bucket');
    expect(await deps.storage.read(policy.key, 1e9)).toBeNull();
    // No /upload target when the files are in a bucket.
    expect((await fetch(`${server.url}/upload`, { method: 'POST' })).status).toBe(404);
  });

  test('an object larger than a page may be is not read', async () => {
    const user = await extensionUser(deps, server.url);
    const url = 'https://example.test/s3-huge';
    const { body } = await callOpenApi(server.url, user.headers, 'POST', '/extension/uploads', { url });
    await deps.storage.write(body.data.key, Buffer.alloc(body.data.maxBytes + 1, 'a'), 'text/plain');
    const done = await callOpenApi(server.url, user.headers, 'POST', '/extension/uploads/complete', {
      key: body.data.key,
    });
    expect(done.status).toBe(413);
  });
});
