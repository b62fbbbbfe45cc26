// The container's health probe, chosen by ROLE like the entry point (`server/cli/role.ts`):
// the server must answer GET /healthz (PostgreSQL and Redis reachable), the worker must have
// written its heartbeat (`jobs/heartbeat.ts`; name and age: `server/heartbeat-file.ts`) within
// the last minute. Exits 0 healthy, 1 not.
import { loadConfig } from '../config.ts';
import { HEARTBEAT_MAX_AGE_MS, heartbeatAgeMs } from '../heartbeat-file.ts';
import { roleFromEnv } from '../role.ts';

const TIMEOUT_MS = 4_000;

async function probe(): Promise<string | undefined> {
  const role = roleFromEnv();
  if (!role) return `unknown ROLE "${process.env.ROLE}"`;
  const config = loadConfig();
  if (role === 'worker') {
    const age = await heartbeatAgeMs(config.dataDir);
    if (age === undefined) return `no worker heartbeat in ${config.dataDir}`;
    return age <= HEARTBEAT_MAX_AGE_MS ? undefined : `worker heartbeat is ${Math.round(age / 1000)} s old`;
  }
  const response = await fetch(`http://127.0.0.1:${config.port}/healthz`, {
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return response.ok ? undefined : `/healthz answered ${response.status}`;
}

try {
  const problem = await probe();
  if (problem) console.log(`unhealthy: ${problem}`);
  process.exit(problem ? 1 : 0);
} catch (err) {
  console.log(`unhealthy: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
