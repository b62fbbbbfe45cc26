// `npm run server`: the HTTP server alone (run workers with `npm run worker`).
import { enableCompileCache } from 'node:module';

// As in server/start.ts: the compiled modules are kept between starts.
enableCompileCache();
const { runServer } = await import('./launcher.ts');
await runServer({ withWorkers: false });
