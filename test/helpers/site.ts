import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

export const CORPUS_DIR = path.resolve(import.meta.dirname, '../corpus/extraction-dev');

export function corpusIds(): string[] {
  return Object.keys(JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'ground-truth.json'), 'utf8')));
}

export function corpusPage(id: string): { html: Buffer; articleBody: string } {
  const truth = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'ground-truth.json'), 'utf8'))[id];
  return {
    html: gunzipSync(fs.readFileSync(path.join(CORPUS_DIR, 'html', `${id}.html.gz`))),
    articleBody: truth.articleBody,
  };
}

export type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

export interface TestSite {
  origin: string;
  /** `host:port` to put in FETCH_ALLOW_TARGETS. */
  target: string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** A local web site on loopback serving whatever the test routes say; counts requests per path. */
export async function startSite(routes: Record<string, Route>): Promise<TestSite> {
  const hits = new Map<string, number>();
  const server = http.createServer(async (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    const route = routes[pathname];
    if (!route) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    await route(req, res);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    target: `127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const html =
  (body: string | Buffer, contentType = 'text/html; charset=utf-8'): Route =>
  (_req, res) => {
    res.setHeader('Content-Type', contentType);
    res.end(body);
  };

export function article(title: string, paragraphs: string[]): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<meta property="og:site_name" content="Test Site"><meta name="author" content="Ada Lovelace"></head>
<body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article>
<footer>© Test Site — all rights reserved</footer></body></html>`;
}
