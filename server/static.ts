import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import superjson from 'superjson';
import { BOOT_DATA_ID, type BootData } from '../src/boot-data.ts';
import type { AppConfig } from './config.ts';
import { errorFields, log } from './log.ts';

/** The built client; `MARGIN_CLIENT_DIST` moves it, so parallel test runs can each build their own. */
export const CLIENT_DIST = path.resolve(
  import.meta.dirname,
  '..',
  process.env.MARGIN_CLIENT_DIST ?? 'dist/client',
);

/** Region facts the client needs before its first render, as meta tags (no inline script: CSP). */
function withRegionMeta(html: string, config: AppConfig): string {
  const meta = `<meta name="margin-region" content="${config.region}">`;
  return html.replace('</head>', `${meta}</head>`);
}

/**
 * Data for the first render as a JSON block, which CSP lets through (it is never run). Every `<`
 * is escaped, so no string in it (a page title, a nickname) can close the element or open a
 * comment.
 */
function bootDataBlock(data: BootData): string {
  const json = superjson.stringify(data).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${BOOT_DATA_ID}">${json}</script>`;
}

const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * The build's brotli or gzip copy of a script or style (vite.config.ts makes them), when the
 * browser takes that encoding: compressed once at build time, not on every request.
 */
function precompressed(dir: string, options: { immutable: boolean; maxAge: string }): RequestHandler {
  return (req, res, next) => {
    const type = /\.(js|css)$/.exec(req.path)?.[1];
    const file = path.join(dir, path.normalize(req.path));
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !type || !file.startsWith(dir + path.sep))
      return next();
    // Ours is the preference (brotli is smaller), among what the browser takes.
    const encoding = ENCODINGS.find((e) => req.acceptsEncodings(e.name) === e.name);
    if (!encoding || !fs.existsSync(file + encoding.suffix)) return next();
    res.type(type);
    res.setHeader('Content-Encoding', encoding.name);
    res.vary('Accept-Encoding');
    res.sendFile(file + encoding.suffix, options, (error) => {
      if (error && !res.headersSent) next(error);
    });
  };
}

/** What index.html carries for a request (server/trpc/boot-data.ts). */
type BootDataSource = (req: Request, res: Response) => Promise<BootData>;

/**
 * Serves the production client build from one origin: hashed assets cached for a year,
 * index.html for every other GET so the client router decides (unknown paths go to /404).
 *
 * index.html carries who is signed in and the first data of the home route, so the client shows
 * it without a request of its own: it varies with the cookie and no shared cache may keep it.
 * Its head (with the scripts to preload) goes out at once; the data follows when it is read.
 */
export function clientRouter(config: AppConfig, bootData: BootDataSource, distDir = CLIENT_DIST): Router {
  const router = express.Router();
  const indexFile = path.join(distDir, 'index.html');
  let indexHtml: { head: string; rest: string } | undefined;
  const readIndex = () => {
    if (indexHtml === undefined || config.nodeEnv !== 'production') {
      const html = fs.existsSync(indexFile)
        ? withRegionMeta(fs.readFileSync(indexFile, 'utf8'), config)
        : '<!doctype html><title>Margin</title><p>The client is not built yet: run <code>npm run build</code>.</p></head>';
      const end = html.indexOf('</head>');
      indexHtml = { head: html.slice(0, end), rest: html.slice(end) };
    }
    return indexHtml;
  };
  const assetsDir = path.join(distDir, 'assets');
  const assetOptions = { immutable: true, maxAge: '365d' };
  router.use('/assets', precompressed(assetsDir, assetOptions));
  router.use('/assets', express.static(assetsDir, { ...assetOptions, fallthrough: false }));
  router.use(express.static(distDir, { index: false, maxAge: '1h' }));
  router.get(/.*/, async (req, res) => {
    const { head, rest } = readIndex();
    res.setHeader('Cache-Control', 'private, no-cache');
    res.vary('Cookie');
    res.type('html');
    res.write(head);
    res.flush();
    let boot = '';
    try {
      boot = bootDataBlock(await bootData(req, res));
    } catch (error) {
      // The client then asks for what it needs itself.
      log.error('index.html without its boot data', errorFields(error));
    }
    res.end(`${boot}${rest}`);
  });
  return router;
}
