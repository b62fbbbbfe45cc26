// `npm run server`: the HTTP server alone (run workers with `npm run worker`).
import { runServer } from './run.ts';

await runServer({ withWorkers: false });
