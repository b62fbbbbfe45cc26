import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import pkg from './package.json' with { type: 'json' };
import { homeRouteChunking, leanerModules, localeParts, preloadHomeRouteChunks } from './vite-chunks.ts';

const ENTRY_SCRIPT = '<script type="module" crossorigin';

/**
 * The entry runs as soon as it has loaded, not after the whole page: index.html's data block
 * comes after its head (server/static.ts), and evaluating the scripts need not wait for it.
 * main.tsx waits for the parsed page before it reads the data.
 */
function asyncEntry(): Plugin {
  return {
    name: 'margin:async-entry',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!html.includes(ENTRY_SCRIPT)) throw new Error(`asyncEntry: no ${ENTRY_SCRIPT} in index.html`);
        return html.replace(ENTRY_SCRIPT, '<script type="module" async crossorigin');
      },
    },
  };
}

/**
 * Brotli at 10 comes within 2% of 11's size in under half its time (the whole build: 424 KB
 * against 417 KB, 3.2 s against 8.2 s on a busy 2-core machine).
 */
const BROTLI_QUALITY = 10;

/**
 * Brotli and gzip copies of the scripts and styles beside them, compressed once here instead of
 * on every request (server/static.ts serves them), and smaller than a per-request setting could
 * afford.
 */
function precompressAssets(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipBest = promisify(gzip);
  return {
    name: 'margin:precompress-assets',
    apply: 'build',
    async writeBundle({ dir = '' }, bundle) {
      const outputs = Object.values(bundle).filter((output) => /\.(js|css)$/.test(output.fileName));
      await Promise.all(
        outputs.map(async (output) => {
          const source = output.type === 'chunk' ? output.code : output.source;
          const file = path.join(dir, output.fileName);
          const [br, gz] = await Promise.all([
            brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }),
            gzipBest(source, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

// The client lives in client/ and builds to dist/client, which the server serves (one origin).
export default defineConfig({
  root: 'client',
  publicDir: 'public',
  plugins: [react(), localeParts(), asyncEntry(), preloadHomeRouteChunks(), precompressAssets()],
  define: { __BUILD_VERSION__: JSON.stringify(pkg.version) },
  resolve: { alias: leanerModules },
  build: {
    outDir: path.resolve(import.meta.dirname, process.env.MARGIN_CLIENT_DIST ?? 'dist/client'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 500,
    // Every browser es2022 names loads modulepreload links itself.
    modulePreload: { polyfill: false },
    rolldownOptions: homeRouteChunking,
  },
  server: {
    port: 5173,
    // As the server's own address: without PUBLIC_URL it answers no other Host (server/http/served-host.ts).
    proxy: {
      '/trpc': { target: 'http://127.0.0.1:3000', changeOrigin: true },
      '/healthz': { target: 'http://127.0.0.1:3000', changeOrigin: true },
    },
  },
});
