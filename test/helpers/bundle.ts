import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The JavaScript a browser loads before the home route renders: the entry script in
 * index.html and every chunk it imports statically (dynamic `import()` chunks are excluded).
 */
export function homeRouteScripts(distDir: string): { file: string; gzipBytes: number }[] {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g)].map((m) => m[1] as string);
  const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g)].map(
    (m) => m[1] as string,
  );
  const seen = new Set<string>();
  const queue = [...entries, ...preloads];
  while (queue.length) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = fs.readFileSync(path.join(distDir, file), 'utf8');
    // Static imports only: `import … from "./x.js"` and `import "./x.js"`, not `import("./x.js")`.
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)) {
      queue.push(path.posix.join(path.posix.dirname(file), m[1] as string));
    }
  }
  return [...seen].map((file) => ({
    file,
    gzipBytes: gzipSync(fs.readFileSync(path.join(distDir, file)), { level: 9 }).length,
  }));
}
