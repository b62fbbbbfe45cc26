import { type Response, Router } from 'express';
import { STORED_IMAGE_BY_SOURCE_PATH } from '../../src/rules/stored-image.ts';
import type { AppDeps } from '../deps.ts';
import { IMAGE_LIMITS } from '../domain/images/store-images.ts';
import { findStoredImage, storedImageOf } from '../domain/images/stored-images.ts';
import { signedInUser } from './signed-in.ts';

/** A year: an address named by its content never changes what it serves. */
const IMMUTABLE = 'private, max-age=31536000, immutable';

const IMAGE_NAME = /^([0-9a-f]{64})\.(png|jpg|gif|webp|avif)$/;

/** Nothing here for this request: the same answer whether the file is someone else's or never was. */
function notFound(res: Response) {
  res.set('Cache-Control', 'no-store').status(404).json({ error: 'errors.notFound' });
}

/**
 * `/files`: the images Margin stored with its notes, only to their owner (signed in by the session
 * cookie); anyone else, signed in or not, gets the 404 of a file that is not there.
 * - `GET /files/images/<sha256>.<ext>`: the image, cached for good (its name is its content), as
 *   its sniffed type, never sniffed again by the browser, and in a sandbox if opened as a document.
 * - `GET /files/source?url=<address>`: a redirect to the stored copy of the image at that address
 *   (what an image highlight keeps), or 404 when Margin has none.
 */
export function filesRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/files/images/:name', async (req, res) => {
    const name = IMAGE_NAME.exec(req.params.name ?? '');
    const user = name && (await signedInUser(deps, req));
    if (!name || !user) return notFound(res);
    const hash = name[1] as string;
    const image = await findStoredImage(deps.orm.em.fork(), user.id, hash);
    if (!image) return notFound(res);
    res.set({
      'Cache-Control': IMMUTABLE,
      ETag: `"${hash}"`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Content-Disposition': `inline; filename="${hash}.${name[2]}"`,
    });
    if (req.fresh) return void res.status(304).end();
    const bytes = await deps.storage.read(image.key, IMAGE_LIMITS.maxBytes);
    if (!bytes) return notFound(res);
    res.type(image.contentType).send(bytes);
  });
  router.get(STORED_IMAGE_BY_SOURCE_PATH, async (req, res) => {
    const url = typeof req.query.url === 'string' ? req.query.url : '';
    const user = url && (await signedInUser(deps, req));
    if (!user) return notFound(res);
    const path = await storedImageOf(deps.orm.em.fork(), user.id, url);
    if (!path) return notFound(res);
    // The copy may change (the note saved again): the answer is kept only briefly.
    res.set('Cache-Control', 'private, max-age=300').redirect(302, path);
  });
  return router;
}
