// `npm start`: the single-machine install — the client, plugins and extension built if needed,
// Redis started if needed, the server and the workers in one process.
import { enableCompileCache } from 'node:module';

// Keeps the modules' compiled code (TypeScript stripped, V8's cache) on disk between starts
// (NODE_COMPILE_CACHE moves it; the OS's temporary directory by default). Enabled before the app
// is imported, which is why the import is dynamic: a static one is compiled before this runs.
enableCompileCache();
const { runServer } = await import('./launcher.ts');
await runServer({ withWorkers: true, launchRedis: true, buildAssets: true });
