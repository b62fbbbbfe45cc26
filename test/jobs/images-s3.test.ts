import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { StoredFile, User } from '../../server/db/entities/index.ts';
import { enqueue, findJob } from '../../server/queue.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { jpegImage, pngImage } from '../helpers/images.ts';
import { clipSettled } from '../helpers/notes.ts';
import { article, html, startSite, type TestSite } from '../helpers/site.ts';
import { signedInUser } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';

// The images stored with notes in an S3-compatible store (s3rver): written to the bucket, served
// by Margin from it, and removed from it with the note and with the account.

let s3: S3rver;
let s3Dir: string;
let deps: TestDeps;
let site: TestSite;
let workers: RunningWorkers;
let server: RunningServer;

const PARAGRAPHS = [
  'A bucket keeps the pictures of this article, far from the disk of the machine that serves it.',
  'The second paragraph makes the page long enough for the parser to take it for an article.',
];

beforeAll(async () => {
  s3Dir = mkdtempSync(path.join(tmpdir(), 'margin-s3-images-'));
  s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: 'margin-files', configs: [] }],
  });
  const { port } = await s3.run();
  site = await startSite({
    '/bucket': html(
      article('In a bucket', PARAGRAPHS).replace(
        '</article>',
        '<p><img src="/a.png" alt="A"> <img src="/b.jpg" alt="B"></p></article>',
      ),
    ),
    '/a.png': html(pngImage(30, 20), 'image/png'),
    '/b.jpg': html(jpegImage(), 'image/jpeg'),
  });
  deps = await createTestDeps({
    FETCH_ALLOW_TARGETS: site.target,
    STORAGE: 's3',
    S3_BUCKET: 'margin-files',
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_FORCE_PATH_STYLE: '1',
  });
  workers = await startWorkers(deps);
  server = await startServer(deps);
});
afterAll(async () => {
  await server?.close();
  await workers?.close();
  await deps?.close();
  await site?.close();
  await s3?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

async function clipWithImages(caller: Awaited<ReturnType<typeof signedInUser>>['caller']) {
  const { note } = await caller.notes.clip({ url: `${site.origin}/bucket` });
  const { clipAttempts } = await clipSettled(deps, note.id);
  await waitFor(
    async () =>
      (await (
        await findJob(deps.queues, 'storeImages', { noteId: note.id, attempt: clipAttempts })
      )?.getState()) === 'completed'
        ? true
        : undefined,
    30_000,
    'images stored',
  );
  const keys = (await deps.orm.em.fork().find(StoredFile, { note: note.id })).map((r) => r.key as string);
  return { note, keys };
}

const inBucket = async (keys: string[]) =>
  (await Promise.all(keys.map((key) => deps.storage.read(key, 1e9)))).filter(Boolean).length;

test('stored in the bucket and served from it; deleting the note for good removes them', async () => {
  const { caller, token } = await signedInUser(deps);
  const { note, keys } = await clipWithImages(caller);
  expect(keys).toHaveLength(2);
  expect(await inBucket(keys)).toBe(2);
  const detail = await caller.notes.get({ id: note.id });
  const src = /<img src="([^"]+\.jpg)"/.exec(detail.contentHtml)?.[1] as string;
  const served = await fetch(`${server.url}${src}`, { headers: { cookie: `logininfo=${token}` } });
  expect(served.status).toBe(200);
  expect(Buffer.from(await served.arrayBuffer()).equals(jpegImage())).toBe(true);

  await caller.notes.trash({ ids: [note.id] });
  await caller.notes.deleteForever({ ids: [note.id] });
  await waitFor(async () => ((await inBucket(keys)) === 0 ? true : undefined), 20_000, 'objects removed');
  expect((await fetch(`${server.url}${src}`, { headers: { cookie: `logininfo=${token}` } })).status).toBe(
    404,
  );
});

test('a deleted account’s objects all go from the bucket', async () => {
  const { caller, user } = await signedInUser(deps);
  const { keys } = await clipWithImages(caller);
  expect(await inBucket(keys)).toBe(2);
  await deps.orm.em.fork().nativeDelete(User, { id: user.id });
  await enqueue(deps.queues, 'deleteUserFiles', { userId: user.id });
  await waitFor(async () => ((await inBucket(keys)) === 0 ? true : undefined), 20_000, 'objects removed');
});
