// `npm start`: the single-machine install — Redis (started if needed), server and workers in one process.
import { runServer } from './run.ts';

await runServer({ withWorkers: true, launchRedis: true });
