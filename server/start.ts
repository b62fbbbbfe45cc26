// `npm start`: the single-machine install — the client, plugins and extension built if needed,
// Redis started if needed, the server and the workers in one process.
import { runServer } from './launcher.ts';

await runServer({ withWorkers: true, launchRedis: true, buildAssets: true });
