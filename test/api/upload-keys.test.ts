// An upload key is single-use and every stored upload has an owner row: the local store takes
// one file per key (a policy posted again, or twice at once, is refused), completing spends the
// key, and the purge removes the files of expired and spent keys and any file without a row. A
// bucket takes posts without asking Margin (S3 cannot make a policy single-use), so there the
// purge is what removes a file posted after completion.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clock } from '../../server/clock.ts';
import { Note, Upload } from '../../server/db/entities/index.ts';
import {
  purgeSpentUploads,
  UPLOAD_POLICY_TTL_MS,
  UPLOADS_PREFIX,
  userUploadsPrefix,
} from '../../server/domain/uploads/uploads.service.ts';
import type { UploadPolicy } from '../../src/schemas/extension.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { extensionUser, pageFile, postUploadForm } from '../helpers/extension.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { callOpenApi } from '../helpers/openapi.ts';
import { article } from '../helpers/site.ts';

const PARAGRAPHS = [
  'One key, one file: the form that carried this page cannot carry another once it is saved.',
  'The second paragraph makes the page long enough for the parser to take it for an article.',
];

interface Store {
  env: Record<string, string>;
  close(): Promise<void>;
}

async function localStore(): Promise<Store> {
  return { env: {}, close: async () => {} };
}

async function s3Store(): Promise<Store> {
  const directory = mkdtempSync(path.join(tmpdir(), 'margin-s3-uploads-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'margin-files', configs: [] }],
  });
  const { port } = await s3.run();
  return {
    env: {
      STORAGE: 's3',
      S3_BUCKET: 'margin-files',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: '1',
    },
    async close() {
      await s3.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

describe.each([
  ['the local store', 'local', localStore],
  ['an S3-compatible store', 's3', s3Store],
] as const)('with %s', (_name, driver, makeStore) => {
  let store: Store;
  let deps: TestDeps;
  let server: RunningServer;

  beforeAll(async () => {
    store = await makeStore();
    deps = await createTestDeps(store.env);
    server = await startServer(deps);
  });
  afterAll(async () => {
    await server?.close();
    await deps?.close();
    await store?.close();
  });

  async function policyFor(headers: Record<string, string>, url: string): Promise<UploadPolicy> {
    const answer = await callOpenApi(server.url, headers, 'POST', '/extension/uploads', { url });
    expect(answer.status).toBe(201);
    return answer.body.data;
  }

  const complete = (headers: Record<string, string>, key: string) =>
    callOpenApi(server.url, headers, 'POST', '/extension/uploads/complete', { key });

  async function storedKeys(prefix = UPLOADS_PREFIX): Promise<string[]> {
    const keys: string[] = [];
    for await (const page of deps.storage.list(prefix)) keys.push(...page);
    return keys.sort();
  }

  const purge = (now = clock.now()) => purgeSpentUploads(deps.orm.em.fork(), deps.storage, now);

  test('a policy posted again after its page was saved stores nothing that lasts, and saves no second note', async () => {
    const user = await extensionUser(deps, server.url);
    const url = 'https://example.test/once';
    const policy = await policyFor(user.headers, url);
    expect(policy.key.startsWith(userUploadsPrefix(user.user.id))).toBe(true);
    expect((await postUploadForm(policy, pageFile(url, article('Once', PARAGRAPHS)))).status).toBe(200);
    const saved = await complete(user.headers, policy.key);
    expect(saved.status).toBe(200);
    expect(await storedKeys()).not.toContain(policy.key);

    const again = await postUploadForm(policy, `${'x'.repeat(1024 * 1024)}`);
    if (driver === 'local') {
      expect(again.status).toBe(409);
      expect(await again.json()).toEqual({
        error: { code: 'KeyAlreadyUsed', message: 'This upload form was already used. Save the page again.' },
      });
      expect(await storedKeys()).not.toContain(policy.key);
    } else {
      // The bucket took it; the key is spent, so the purge removes it.
      expect(again.status).toBe(200);
      expect(await storedKeys()).toContain(policy.key);
    }
    const replay = await complete(user.headers, policy.key);
    expect(replay.status).toBe(200);
    expect(replay.body.data).toMatchObject({ created: false, note: { id: saved.body.data.note.id } });
    await purge();
    expect(await storedKeys()).not.toContain(policy.key);
    expect(await deps.orm.em.fork().count(Note, { user: user.user.id })).toBe(1);
  });

  test('two posts at once with one policy store one file', async () => {
    const user = await extensionUser(deps, server.url);
    const url = 'https://example.test/at-once';
    const policy = await policyFor(user.headers, url);
    const files = ['First', 'Second'].map((title) => pageFile(url, article(title, PARAGRAPHS)));
    const answers = await Promise.all(files.map((file) => postUploadForm(policy, file)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual(driver === 'local' ? [200, 409] : [200, 200]);
    expect(await storedKeys(userUploadsPrefix(user.user.id))).toEqual([policy.key]);
    // One whole file (a bucket keeps one object per key too, but s3rver, unlike S3, may
    // interleave two writes of one object, so its content is not checked).
    if (driver === 'local')
      expect(files).toContain((await deps.storage.read(policy.key, 1e9))?.toString('utf8'));
  });

  test('the purge removes files without a row and files of expired keys, and keeps a live key’s', async () => {
    const user = await extensionUser(deps, server.url);
    const url = 'https://example.test/waiting';
    const live = await policyFor(user.headers, url);
    expect((await postUploadForm(live, pageFile(url, article('Waiting', PARAGRAPHS)))).status).toBe(200);
    // Files no row owns: one in the account's folder, one in a folder of no account.
    const orphans = [
      `${userUploadsPrefix(user.user.id)}orphan-file-1.txt`,
      `${UPLOADS_PREFIX}999999/stray-0001.txt`,
    ];
    for (const key of orphans) await deps.storage.write(key, Buffer.from('no owner'), 'text/plain');

    const first = await purge();
    expect(first.orphans).toBeGreaterThanOrEqual(2);
    const afterFirst = await storedKeys();
    expect(afterFirst).toContain(live.key);
    for (const key of orphans) expect(afterFirst).not.toContain(key);

    // Once the key has expired its file goes and the key is spent: completing finds nothing.
    await purge(new Date(clock.now().getTime() + UPLOAD_POLICY_TTL_MS + 1000));
    expect(await storedKeys()).not.toContain(live.key);
    expect((await deps.orm.em.fork().findOneOrFail(Upload, { key: live.key })).state).toBe('spent');
    const late = await complete(user.headers, live.key);
    expect(late.status).toBe(404);
    expect(late.body.message).toBe('That upload was not found. Save the page again.');
    expect(await deps.orm.em.fork().count(Note, { user: user.user.id })).toBe(0);
  });
});
