// `npm run worker` (ROLE=worker in the image): the BullMQ workers alone, for deployments that
// scale them apart from the server.
import { loadConfig } from '../server/config.ts';
import { boot } from '../server/deps.ts';
import { checkHealth } from '../server/health.ts';
import { Lifecycle, startProcess } from '../server/lifecycle.ts';
import { startHeartbeat } from './heartbeat.ts';
import { startWorkers } from './workers.ts';

const lifecycle = new Lifecycle();
await startProcess(lifecycle, async () => {
  const config = loadConfig();
  const deps = await boot(config);
  lifecycle.add('database and queues', () => deps.shutdown());
  const workers = await startWorkers(deps);
  lifecycle.add('workers', (drainUntil) => workers.close(drainUntil));
  // For the container health check (server/cli/healthcheck.ts): beats only while the checks behind
  // the server's /healthz pass (PostgreSQL and Redis answer). Stopped first, so a stopping worker
  // is never reported healthy.
  const heartbeat = await startHeartbeat({
    dataDir: config.dataDir,
    check: async () => {
      const report = await checkHealth(deps);
      if (!report.ok) throw new Error(`unhealthy: ${JSON.stringify(report.checks)}`);
    },
  });
  lifecycle.add('heartbeat', () => heartbeat.stop());
});
