import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import { EXTENSION_VERSION } from '../../src/schemas/extension.ts';
import {
  EXTENSION_DIST_DIR,
  EXTENSION_PACKAGES,
  type ExtensionPackage,
} from '../domain/system/extension-packages.ts';

/** `GET /downloads/extension/:browser`: the self-hosted extension package (load unpacked). */
export function extensionDownloadRoutes(dir = EXTENSION_DIST_DIR): Router {
  const router = Router();
  router.get('/downloads/extension/:browser', (req, res, next) => {
    const browser = req.params.browser.replace(/\.zip$/, '');
    if (!Object.hasOwn(EXTENSION_PACKAGES, browser)) return next();
    const file = path.join(dir, EXTENSION_PACKAGES[browser as ExtensionPackage]);
    if (!fs.existsSync(file)) return next();
    res.download(file, `margin-${browser}-${EXTENSION_VERSION}.zip`);
  });
  return router;
}
