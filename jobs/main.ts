// `npm run worker`: the BullMQ workers alone, for deployments that scale them apart from the server.
import { boot, onShutdownSignal } from '../server/boot.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import { checkHealth } from '../server/health.ts';
import { startHeartbeat } from './heartbeat.ts';
import { startWorkers } from './workers.ts';

try {
  const deps = await boot(loadConfig());
  const workers = await startWorkers(deps);
  // For the container health check (server/cli/healthcheck.ts): beats only while the checks behind
  // the server's /healthz pass (PostgreSQL and Redis answer).
  const heartbeat = await startHeartbeat({
    dataDir: deps.config.dataDir,
    check: async () => {
      const report = await checkHealth(deps);
      if (!report.ok) throw new Error(`unhealthy: ${JSON.stringify(report.checks)}`);
    },
  });
  onShutdownSignal(async () => {
    await heartbeat.stop();
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
