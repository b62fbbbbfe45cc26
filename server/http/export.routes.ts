import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { ZipFile } from 'yazl';
import { dayKey } from '../../src/rules/daily-counter.ts';
import { clock } from '../clock.ts';
import type { AppDeps } from '../deps.ts';
import { writeMarkdownExport } from '../domain/sync/markdown-export.ts';
import { errorFields, log } from '../log.ts';
import { publicOrigin } from '../web/public-origin.ts';
import { signedInUser } from './signed-in.ts';

/**
 * `GET /api/export/markdown.zip`: the signed-in user's notes as Markdown files in a zip,
 * streamed as it is made (a plain link downloads it; the session cookie signs it in).
 */
export function exportRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/markdown.zip', async (req, res) => {
    const user = await signedInUser(deps, req);
    if (!user) {
      res.status(401).json({ error: 'errors.unauthorized' });
      return;
    }
    const day = dayKey(clock.now(), user.timeZone);
    res.type('application/zip');
    res.attachment(`margin-markdown-${day}.zip`);
    res.set('Cache-Control', 'no-store');
    const zip = new ZipFile();
    const left = new AbortController();
    res.on('close', () => left.abort());
    try {
      // Both awaited together: a reader who leaves rejects the pipeline while the export still runs.
      await Promise.all([
        pipeline(zip.outputStream, res),
        writeMarkdownExport(
          deps.orm.em.fork(),
          user,
          publicOrigin(deps.config, req),
          zip,
          deps.compute,
          left.signal,
        ),
      ]);
    } catch (error) {
      if (left.signal.aborted) return;
      // Headers are gone: all that is left is to cut the download short, so it is not taken for whole.
      log.error('markdown export failed', errorFields(error));
      res.destroy();
    }
  });
  return router;
}
