// `npm run worker`: the BullMQ workers alone, for deployments that scale them apart from the server.
import { boot, onShutdownSignal } from '../server/boot.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import { startWorkers } from './workers.ts';

try {
  const deps = await boot(loadConfig());
  const workers = await startWorkers(deps);
  onShutdownSignal(async () => {
    await workers.close();
    await deps.shutdown();
  });
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
