// The worker's liveness signal for container health checks: a worker has no HTTP port, so while
// it runs it writes the time to `DATA_DIR/worker-heartbeat.<hostname>` and `server/cli/healthcheck.ts`
// judges how fresh that is (the file's name and age: `server/heartbeat-file.ts`).
import fs from 'node:fs/promises';
import { withTimeout } from '../server/health.ts';
import { HEARTBEAT_INTERVAL_MS, heartbeatFile } from '../server/heartbeat-file.ts';
import { log } from '../server/log.ts';

const CHECK_TIMEOUT_MS = 5_000;

export interface HeartbeatOptions {
  dataDir: string;
  instance?: string;
  intervalMs?: number;
  /** Must resolve for a beat to be written (e.g. a Redis ping), so a worker cut off from Redis goes stale. */
  check?: () => Promise<unknown>;
  now?: () => number;
}

export interface Heartbeat {
  /** Stops beating and removes the file, so a stopped worker is never reported healthy. */
  stop(): Promise<void>;
}

export async function startHeartbeat(options: HeartbeatOptions): Promise<Heartbeat> {
  const file = heartbeatFile(options.dataDir, options.instance);
  const now = options.now ?? Date.now;
  await fs.mkdir(options.dataDir, { recursive: true });
  let stopped = false;
  let inFlight: Promise<void> | undefined;
  const beat = async () => {
    try {
      if (options.check) await withTimeout(options.check(), CHECK_TIMEOUT_MS);
      if (stopped) return;
      // Write and rename, so the probe never reads a half-written (empty) file.
      await fs.writeFile(`${file}.tmp`, `${now()}\n`);
      await fs.rename(`${file}.tmp`, file);
    } catch (err) {
      log.warn('worker heartbeat skipped', { error: err instanceof Error ? err.message : String(err) });
    }
  };
  await beat();
  const timer = setInterval(() => {
    // One beat at a time: a slow check skips ticks rather than piling up writes.
    inFlight ??= beat().finally(() => {
      inFlight = undefined;
    });
  }, options.intervalMs ?? HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
      await fs.rm(file, { force: true });
    },
  };
}
