import path from 'node:path';
import express, { type Router } from 'express';
// The package's index also loads Swagger UI's 1.5 MB browser bundle; this part only finds its folder.
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';

/** The document the docs page reads. */
const DOCUMENT_URL = '/openapi/v1/openapi.json';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Margin API</title>
  <link rel="icon" href="/icon.svg">
  <link rel="stylesheet" href="assets/swagger-ui.css">
  <style>body { margin: 0; } .swagger-ui .topbar { display: none; }</style>
</head>
<body>
  <div id="docs"></div>
  <script src="assets/swagger-ui-bundle.js"></script>
  <script src="start.js"></script>
</body>
</html>`;

// A file, not an inline script: the Content-Security-Policy allows scripts from 'self' only.
const START = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(DOCUMENT_URL)},
  dom_id: '#docs',
  deepLinking: true,
  persistAuthorization: false,
  tryItOutEnabled: false,
});`;

/**
 * `/openapi/docs`: interactive docs over the generated document (Swagger UI, served from this
 * server: no third-party origin is contacted).
 */
export function docsRoutes(): Router {
  const router = express.Router();
  const assets = getAbsoluteFSPath();
  router.get('/', (req, res, next) => {
    // Relative asset paths need the trailing slash.
    if (!req.originalUrl.split('?')[0]?.endsWith('/')) return res.redirect(301, `${req.baseUrl}/`);
    if (req.path !== '/') return next();
    res.type('html').setHeader('Cache-Control', 'no-cache').send(PAGE);
  });
  router.get('/start.js', (_req, res) => {
    res.type('js').setHeader('Cache-Control', 'no-cache').send(START);
  });
  router.get(['/assets/swagger-ui.css', '/assets/swagger-ui-bundle.js'], (req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.sendFile(path.join(assets, path.basename(req.path)));
  });
  return router;
}
