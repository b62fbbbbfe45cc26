import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type Response, Router } from 'express';
import { ZipFile } from 'yazl';
import { EXTENSION_VERSION } from '../../src/schemas/extension.ts';
import { zPluginTool } from '../../src/schemas/system.ts';
import type { AppConfig } from '../config.ts';
import {
  builtPluginVersion,
  EXTENSION_PACKAGES,
  type ExtensionPackage,
  PLUGIN_PACKAGES,
} from '../domain/system/built-packages.ts';
import { errorFields, log } from '../log.ts';
import { publicOrigin } from '../web/public-origin.ts';

const notBuilt = (res: Response) =>
  res.status(404).set('Cache-Control', 'no-store').json({ error: 'errors.notFound' });

/**
 * The Obsidian package with a `data.json` beside the plugin: Obsidian loads a plugin's saved
 * settings from it (plugins/obsidian/main.ts, `{ settings }`), so the plugin arrives knowing
 * this server's address.
 */
async function sendObsidianPackage(res: Response, dir: string, origin: string, version: string) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { id: string };
  const zip = new ZipFile();
  for (const name of fs.readdirSync(dir).sort()) zip.addFile(path.join(dir, name), `${manifest.id}/${name}`);
  zip.addBuffer(
    Buffer.from(`${JSON.stringify({ settings: { server: origin } }, null, 2)}\n`),
    `${manifest.id}/data.json`,
    { mtime: fs.statSync(path.join(dir, 'manifest.json')).mtime },
  );
  zip.end();
  res.type('application/zip');
  res.attachment(`margin-obsidian-${version}.zip`);
  // It names the address this request reached.
  res.set('Cache-Control', 'no-store');
  try {
    await pipeline(zip.outputStream, res);
  } catch (error) {
    if (!res.writableEnded) log.warn('plugin download cut short', errorFields(error));
  }
}

/**
 * `/downloads/…`: what this server built for its users to install (`npm start` and the Docker
 * image build them; server/client-build.ts).
 * - `/downloads/extension/<chrome|edge|firefox>`: the browser extension, to load unpacked;
 * - `/downloads/plugins/<obsidian|logseq>`: Margin's note-tool plugins, Obsidian's carrying this
 *   server's address.
 * A package not built, or any other path here, is a 404: the client's index.html never answers
 * under `/downloads/`.
 */
export function downloadRoutes(
  config: Pick<AppConfig, 'packagesDir' | 'publicUrl' | 'host' | 'port'>,
): Router {
  const router = Router();
  router.get('/downloads/extension/:browser', (req, res) => {
    const browser = req.params.browser.replace(/\.zip$/, '');
    if (!Object.hasOwn(EXTENSION_PACKAGES, browser)) return notBuilt(res);
    const file = path.join(config.packagesDir, 'extension', EXTENSION_PACKAGES[browser as ExtensionPackage]);
    if (!fs.existsSync(file)) return notBuilt(res);
    res.download(file, `margin-${browser}-${EXTENSION_VERSION}.zip`);
  });
  router.get('/downloads/plugins/:tool', async (req, res) => {
    const tool = zPluginTool.safeParse(req.params.tool.replace(/\.zip$/, ''));
    const version = tool.success ? builtPluginVersion(config.packagesDir, tool.data) : null;
    if (!tool.success || !version) return notBuilt(res);
    const { zip, folder } = PLUGIN_PACKAGES[tool.data];
    const dir = path.join(config.packagesDir, 'plugins');
    if (tool.data === 'obsidian') {
      await sendObsidianPackage(res, path.join(dir, folder), publicOrigin(config, req), version);
      return;
    }
    res.download(path.join(dir, zip), `margin-${tool.data}-${version}.zip`);
  });
  router.use('/downloads', (_req, res) => notBuilt(res));
  return router;
}
