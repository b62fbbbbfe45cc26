import fs from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import type { AppConfig } from './config.ts';

export const CLIENT_DIST = path.resolve(import.meta.dirname, '../dist/client');

/** Region facts the client needs before its first render, as meta tags (no inline script: CSP). */
function withRegionMeta(html: string, config: AppConfig): string {
  const meta = `<meta name="margin-region" content="${config.region}">`;
  return html.replace('</head>', `${meta}</head>`);
}

/**
 * Serves the production client build from one origin: hashed assets cached for a year,
 * index.html for every other GET so the client router decides (unknown paths go to /404).
 */
export function clientRouter(config: AppConfig, distDir = CLIENT_DIST): Router {
  const router = express.Router();
  const indexFile = path.join(distDir, 'index.html');
  let indexHtml: string | undefined;
  const readIndex = () => {
    if (indexHtml === undefined || config.nodeEnv !== 'production') {
      indexHtml = fs.existsSync(indexFile)
        ? withRegionMeta(fs.readFileSync(indexFile, 'utf8'), config)
        : '<!doctype html><title>Margin</title><p>The client is not built yet: run <code>npm run build</code>.</p>';
    }
    return indexHtml;
  };
  router.use(
    '/assets',
    express.static(path.join(distDir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }),
  );
  router.use(express.static(distDir, { index: false, maxAge: '1h' }));
  router.get(/.*/, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(readIndex());
  });
  return router;
}
