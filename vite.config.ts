import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

// The client lives in client/ and builds to dist/client, which the server serves (one origin).
export default defineConfig({
  root: 'client',
  publicDir: 'public',
  plugins: [react()],
  define: { __BUILD_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
  server: {
    port: 5173,
    proxy: { '/trpc': 'http://127.0.0.1:3000', '/healthz': 'http://127.0.0.1:3000' },
  },
});
