// `npm run server`: the HTTP server alone (run workers with `npm run worker`).
import { runServer } from './launcher.ts';

await runServer({ withWorkers: false });
