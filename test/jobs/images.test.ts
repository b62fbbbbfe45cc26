import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { Note, NoteContent, StoredFile } from '../../server/db/entities/index.ts';
import { IMAGE_LIMITS } from '../../server/domain/images/store-images.ts';
import { deleteNote, purgeTrash } from '../../server/domain/notes/organise.service.ts';
import { findJob } from '../../server/queue.ts';
import { ClipStatus } from '../../src/enums.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { gifImage, jpegImage, pngImage, webpImage } from '../helpers/images.ts';
import { clipSettled, makeClippedNote } from '../helpers/notes.ts';
import { html, type Route, startSite, type TestSite } from '../helpers/site.ts';
import { signedInUser } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';

// The image job: a clipped note's images fetched through the guarded fetcher, checked by their
// bytes, stored once per content hash, and served by Margin to their owner only; refusals keep
// the note working (the reader shows the alt text); deleting the note for good removes them.

const PARAGRAPHS = [
  'Pictures belong to the article they illustrate, and a reader keeps them when the site forgets them.',
  'This paragraph is long enough for the parser to take the page for an article with a real body.',
  'A closing paragraph with a few more words, so the extractor sees a proper article here and not a teaser.',
];

function page(title: string, images: string, lead?: string): string {
  const [first, second, third] = PARAGRAPHS;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
${lead ? `<meta property="og:image" content="${lead}">` : ''}</head>
<body><article><h1>${title}</h1><p>${first}</p>${images}<p>${second}</p><p>${third}</p></article></body></html>`;
}

const PNG = pngImage(320, 160);
const image = (bytes: Buffer, type: string): Route => html(bytes, type);

let deps: TestDeps;
let site: TestSite;
let workers: RunningWorkers;
let server: RunningServer;
const manyRoutes: Record<string, Route> = {};
for (let i = 0; i < IMAGE_LIMITS.maxImages + 5; i++)
  manyRoutes[`/many/${i}.png`] = image(pngImage(8 + i, 8), 'image/png');
let flaky = 0;

beforeAll(async () => {
  site = await startSite({
    '/gallery': (req, res) =>
      html(
        page(
          'A gallery',
          `<figure><img src="/img/diagram.png" alt="A diagram" width="999" height="1" srcset="/img/diagram.png 1x, /img/big.png 2x"></figure>
           <p>A photo: <img src="/img/photo.jpg" alt="A photo"></p>
           <picture><source srcset="/img/photo.webp" type="image/webp"><img src="/img/photo.webp" alt="A webp"></picture>
           <p><img src="/img/anim.gif" alt="An animation"> and <img src="/img/diagram-copy.png" alt="The same diagram"></p>`,
          '/img/lead.png',
        ),
      )(req, res),
    '/img/diagram.png': image(PNG, 'image/png'),
    '/img/diagram-copy.png': image(PNG, 'image/png'),
    '/img/photo.jpg': image(jpegImage(), 'image/jpeg'),
    '/img/photo.webp': image(webpImage(), 'image/webp'),
    '/img/anim.gif': image(gifImage(48, 24), 'image/gif'),
    '/img/lead.png': image(pngImage(64, 32, [200, 40, 40]), 'image/png'),
    '/refused': html(
      page(
        'Refused pictures',
        `<p><img src="/img/huge.png" alt="Too big"></p>
         <p><img src="/img/page-as-png.png" alt="Not a picture"></p>
         <p><img src="/img/to-private.png" alt="Somewhere private"></p>
         <p><img src="/img/icon.svg" alt="A vector"></p>
         <p><img src="/img/gone.png" alt="Gone"></p>
         <p><img src="/img/diagram.png" alt="Fine"></p>`,
      ),
    ),
    '/img/huge.png': (_req, res) => {
      res.setHeader('Content-Type', 'image/png');
      res.end(Buffer.concat([PNG, Buffer.alloc(IMAGE_LIMITS.maxBytes + 1)]));
    },
    '/img/page-as-png.png': html('<!doctype html><html><body>not a picture</body></html>', 'image/png'),
    '/img/to-private.png': (_req, res) => {
      res.statusCode = 302;
      res.setHeader('Location', 'http://10.0.0.7/secret.png');
      res.end();
    },
    '/img/icon.svg': html(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
      'image/svg+xml',
    ),
    '/many': html(
      page(
        'Many pictures',
        Object.keys(manyRoutes)
          .map((path, i) => `<p><img src="${path}" alt="Picture ${i}"></p>`)
          .join('\n'),
      ),
    ),
    ...manyRoutes,
    '/flaky': html(page('A flaky picture', '<p><img src="/img/flaky.png" alt="Flaky"></p>')),
    '/img/flaky.png': (req, res) => {
      flaky++;
      if (flaky === 1) {
        res.statusCode = 503;
        res.end('busy');
        return;
      }
      image(PNG, 'image/png')(req, res);
    },
    '/old': html(page('Clipped long ago', '<p><img src="/img/diagram.png" alt="Old"></p>')),
  });
  deps = await createTestDeps({ FETCH_ALLOW_TARGETS: site.target });
  workers = await startWorkers(deps);
  server = await startServer(deps);
});
afterAll(async () => {
  await server?.close();
  await workers?.close();
  await deps?.close();
  await site?.close();
});

/** Waits for the image job of the note's current clip attempt to end; answers its state and result. */
async function imagesSettled(noteId: string) {
  const note = await clipSettled(deps, noteId);
  expect(note.clipStatus).toBe(ClipStatus.done);
  return waitFor(
    async () => {
      const key = { noteId, attempt: note.clipAttempts } as const;
      const state = await (await findJob(deps.queues, 'storeImages', key))?.getState();
      if (state !== 'completed' && state !== 'failed') return undefined;
      // Read again: a job read while it ran still holds no result when its state reads finished.
      return { state, result: (await findJob(deps.queues, 'storeImages', key))?.returnvalue };
    },
    60_000,
    `images of ${noteId}`,
  );
}

const rowsOf = (noteId: string) =>
  deps.orm.em.fork().find(StoredFile, { note: noteId }, { orderBy: { id: 'asc' } });

/** Each <img> of the reader's article, its attributes by name. */
function readerImages(contentHtml: string): Record<string, string>[] {
  return [...contentHtml.matchAll(/<img\b([^>]*)>/g)].map((m) =>
    Object.fromEntries([...(m[1] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
}

async function get(path: string, token?: string) {
  return fetch(`${server.url}${path}`, {
    redirect: 'manual',
    headers: token ? { cookie: `logininfo=${token}` } : {},
  });
}

describe('storing a clipped note’s images', () => {
  test('PNG, JPEG, WebP and GIF are stored and the reader shows Margin’s copies with their real size', async () => {
    const { caller, token, user } = await signedInUser(deps);
    const { note } = await caller.notes.clip({ url: `${site.origin}/gallery` });
    const settled = await imagesSettled(note.id);
    expect(settled.state).toBe('completed');
    expect(settled.result).toMatchObject({ stored: 5, refused: {} });

    const detail = await caller.notes.get({ id: note.id });
    expect(detail.imagesPending).toBe(false);
    // Nothing loads from the site: its addresses stay only as where each picture came from.
    expect(detail.contentHtml).not.toMatch(/\ssrc="http/);
    expect(detail.contentHtml).not.toMatch(/srcset|<source/);
    const images = readerImages(detail.contentHtml);
    expect(images.map((i) => [i.alt, i.width, i.height])).toEqual([
      ['A diagram', '320', '160'],
      ['A photo', '240', '160'],
      ['A webp', '200', '120'],
      ['An animation', '48', '24'],
      ['The same diagram', '320', '160'],
    ]);
    for (const img of images) {
      expect(img.src).toMatch(/^\/files\/images\/[0-9a-f]{64}\.(png|jpg|webp|gif)$/);
      expect(img).toMatchObject({ loading: 'lazy', decoding: 'async' });
      expect(img['data-source']).toMatch(new RegExp(`^${site.origin}/img/`));
    }
    // The same bytes at two addresses are one file.
    expect(images[0]?.src).toBe(images[4]?.src);
    const rows = await rowsOf(note.id);
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.key)).size).toBe(5);
    expect(rows.every((r) => r.key?.startsWith(`${user.id}/images/${note.id}/`))).toBe(true);

    // The list row's lead image is Margin's copy too.
    const [row] = (await caller.notes.list({})).items;
    expect(row?.image).toMatch(/^\/files\/images\/[0-9a-f]{64}\.png$/);
    expect(row?.leadImageUrl).toBe(`${site.origin}/img/lead.png`);

    // Served from Margin, to its owner.
    const served = await get(images[1]?.src as string, token);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await served.arrayBuffer()).equals(jpegImage())).toBe(true);
    // Asked again with its ETag (by a plain HTTP client: fetch() adds no-cache to a conditional request).
    const again = await new Promise<number | undefined>((resolve, reject) =>
      http
        .get(
          `${server.url}${images[1]?.src}`,
          { headers: { cookie: `logininfo=${token}`, 'if-none-match': served.headers.get('etag') ?? '' } },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        )
        .on('error', reject),
    );
    expect(again).toBe(304);
  });

  test('another user, or nobody signed in, gets 404 for the file and for its source address', async () => {
    const owner = await signedInUser(deps);
    const other = await signedInUser(deps);
    const { note } = await owner.caller.notes.clip({ url: `${site.origin}/old` });
    await imagesSettled(note.id);
    const [src] = readerImages((await owner.caller.notes.get({ id: note.id })).contentHtml).map((i) => i.src);
    expect((await get(src as string, owner.token)).status).toBe(200);
    expect((await get(src as string, other.token)).status).toBe(404);
    expect((await get(src as string)).status).toBe(404);
    expect((await get('/files/images/not-a-hash.png', owner.token)).status).toBe(404);

    const source = `/files/source?url=${encodeURIComponent(`${site.origin}/img/diagram.png`)}`;
    const redirect = await get(source, owner.token);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(src);
    expect((await get(source, other.token)).status).toBe(404);
    expect((await get(source)).status).toBe(404);
    await expect(other.caller.notes.get({ id: note.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  test('too large, not an image by its bytes, redirected somewhere private, SVG, missing: refused, the clip done, the alt text shown', async () => {
    const { caller } = await signedInUser(deps);
    const { note } = await caller.notes.clip({ url: `${site.origin}/refused` });
    const settled = await imagesSettled(note.id);
    expect(settled.state).toBe('completed');
    const img = (name: string) => `${site.origin}/img/${name}`;
    expect(settled.result).toMatchObject({
      stored: 1,
      refused: {
        [img('huge.png')]: 'too_large',
        [img('page-as-png.png')]: 'not_image',
        [img('to-private.png')]: 'blocked_address',
        [img('icon.svg')]: 'content_type',
        [img('gone.png')]: 'http_404',
      },
    });
    const detail = await caller.notes.get({ id: note.id });
    expect(detail.clipStatus).toBe(ClipStatus.done);
    expect(detail.imagesPending).toBe(false);
    expect(readerImages(detail.contentHtml).map((i) => i.alt)).toEqual(['Fine']);
    for (const alt of ['Too big', 'Not a picture', 'Somewhere private', 'A vector', 'Gone'])
      expect(detail.contentHtml).toContain(
        `<span class="reader-image-missing" data-state="refused" role="img" aria-label="${alt}" data-alt="${alt}"></span>`,
      );
    expect(detail.contentHtml).not.toMatch(/\ssrc="http/);
    // The text highlights anchor to is the article's own: the placeholders add none.
    expect(detail.text).not.toContain('Too big');
  });

  test(`a page of more than ${IMAGE_LIMITS.maxImages} images: the first ${IMAGE_LIMITS.maxImages} are stored, the rest refused`, async () => {
    const { caller } = await signedInUser(deps);
    const { note } = await caller.notes.clip({ url: `${site.origin}/many` });
    const settled = await imagesSettled(note.id);
    expect(settled.state).toBe('completed');
    expect(settled.result.stored).toBe(IMAGE_LIMITS.maxImages);
    expect(Object.values(settled.result.refused)).toEqual(Array(5).fill('limit'));
    const detail = await caller.notes.get({ id: note.id });
    expect(readerImages(detail.contentHtml)).toHaveLength(IMAGE_LIMITS.maxImages);
    expect(detail.contentHtml).toContain('data-alt="Picture 104"');
    expect(site.hits.get(`/many/${IMAGE_LIMITS.maxImages}.png`)).toBeUndefined();
  });

  test('a site that fails once is asked again after a backoff; running the job again stores and fetches nothing twice', async () => {
    const { caller } = await signedInUser(deps);
    const { note } = await caller.notes.clip({ url: `${site.origin}/flaky` });
    const settled = await imagesSettled(note.id);
    expect(settled.state).toBe('completed');
    expect(flaky).toBe(2);
    const stored = await rowsOf(note.id);
    expect(stored.map((r) => r.error)).toEqual([null]);

    const write = vi.spyOn(deps.storage, 'write');
    const attempt = (await clipSettled(deps, note.id)).clipAttempts;
    const job = await findJob(deps.queues, 'storeImages', { noteId: note.id, attempt });
    await job?.remove();
    const { enqueue } = await import('../../server/queue.ts');
    await enqueue(deps.queues, 'storeImages', { noteId: note.id, attempt });
    const again = await imagesSettled(note.id);
    expect(again.result).toMatchObject({ stored: 0, kept: 1, refused: {} });
    expect(write).not.toHaveBeenCalled();
    expect(flaky).toBe(2);
    expect((await rowsOf(note.id)).map((r) => r.id)).toEqual(stored.map((r) => r.id));
    write.mockRestore();
  });

  test('a page sent with its HTML (the extension’s upload, the bookmarklet) gets its images stored too', async () => {
    const { caller } = await signedInUser(deps);
    const sent = page(
      'Sent by the browser',
      `<p><img src="${site.origin}/img/photo.jpg" alt="Sent photo"></p>`,
    );
    const { note } = await caller.notes.clipHtml({ url: `${site.origin}/sent-page`, html: sent });
    await imagesSettled(note.id);
    const [img] = readerImages((await caller.notes.get({ id: note.id })).contentHtml);
    expect(img).toMatchObject({ alt: 'Sent photo', width: '240', height: '160' });
  });

  test('a note clipped before images were stored: the reader shows placeholders and queues its images, which then appear', async () => {
    const { caller, user } = await signedInUser(deps);
    const made = await makeClippedNote(deps, user.id, { title: 'Old', text: 'An old note' });
    await deps.orm.em.fork().nativeUpdate(
      NoteContent,
      { note: made.id },
      {
        contentHtml: `<p>An old note</p><p><img src="${site.origin}/img/diagram.png" alt="Old picture" srcset="${site.origin}/img/big.png 2x"></p>`,
      },
    );
    await deps.orm.em.fork().nativeUpdate(Note, { id: made.id }, { clipAttempts: 1 });
    const first = await caller.notes.get({ id: made.id });
    expect(first.imagesPending).toBe(true);
    expect(first.contentHtml).toContain('data-state="pending"');
    expect(first.contentHtml).not.toContain(site.origin);
    expect(first.contentHtml).not.toContain('srcset');
    await imagesSettled(made.id);
    const later = await caller.notes.get({ id: made.id });
    expect(later.imagesPending).toBe(false);
    expect(readerImages(later.contentHtml)).toMatchObject([
      { alt: 'Old picture', width: '320', height: '160' },
    ]);
  });

  test('deleting a note for good removes its stored files and rows; another note keeping the same picture keeps its own', async () => {
    const { caller, user, token: ownerToken } = await signedInUser(deps);
    const { note: first } = await caller.notes.clip({ url: `${site.origin}/old` });
    await imagesSettled(first.id);
    const { note: second } = await caller.notes.clip({ url: `${site.origin}/refused` });
    await imagesSettled(second.id);
    const [row] = await rowsOf(first.id);
    const key = row?.key as string;
    expect(await deps.storage.read(key, 1e9)).not.toBeNull();
    const src = readerImages((await caller.notes.get({ id: first.id })).contentHtml)[0]?.src as string;

    await caller.notes.trash({ ids: [first.id] });
    await caller.notes.deleteForever({ ids: [first.id] });
    await waitFor(
      async () => ((await deps.storage.read(key, 1e9)) === null ? true : undefined),
      20_000,
      'file removed',
    );
    await waitFor(
      async () =>
        (await deps.orm.em.fork().count(StoredFile, { user: user.id, note: null })) === 0 ? true : undefined,
      20_000,
      'rows removed',
    );
    // The same picture of the other note is its own file, still served.
    const other = await rowsOf(second.id);
    expect(other.filter((r) => r.key).map((r) => r.hash)).toEqual([row?.hash]);
    expect(await deps.storage.read(other.find((r) => r.key)?.key as string, 1e9)).not.toBeNull();
    expect((await get(src, ownerToken)).status).toBe(200);
  });

  test('the trash purge and the Open API’s delete remove the stored files of the notes they delete', async () => {
    const { caller, user } = await signedInUser(deps);
    const { note: purged } = await caller.notes.clip({ url: `${site.origin}/gallery?purged` });
    await imagesSettled(purged.id);
    const keys = (await rowsOf(purged.id)).map((r) => r.key as string);
    expect(keys.length).toBeGreaterThan(0);
    await caller.notes.trash({ ids: [purged.id] });
    await deps.orm.em
      .fork()
      .nativeUpdate(Note, { id: purged.id }, { trashedAt: new Date('2026-01-01T00:00:00Z') });
    expect(await purgeTrash(deps.orm.em.fork(), deps.queues, new Date('2026-03-01T00:00:00Z'))).toBe(1);
    const gone = async (of: string[]) =>
      (await Promise.all(of.map((key) => deps.storage.read(key, 1e9)))).every((bytes) => bytes === null)
        ? true
        : undefined;
    await waitFor(() => gone(keys), 20_000, 'purged files removed');

    const { note: deleted } = await caller.notes.clip({ url: `${site.origin}/old?deleted` });
    await imagesSettled(deleted.id);
    const deletedKeys = (await rowsOf(deleted.id)).map((r) => r.key as string);
    await deleteNote({ ...deps, em: deps.orm.em.fork() }, user, deleted.id);
    await waitFor(() => gone(deletedKeys), 20_000, 'deleted files removed');
    expect(await deps.orm.em.fork().count(StoredFile, { user: user.id })).toBe(0);
  });
});
