// The worker's liveness signal for container health checks: a worker has no HTTP port, so while
// it runs it writes the time to `DATA_DIR/worker-heartbeat.<hostname>` and `server/cli/healthcheck.ts`
// judges how fresh that is. One file per host, because scaled workers share the /data volume.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { withTimeout } from '../server/health.ts';
import { log } from '../server/log.ts';

export const HEARTBEAT_INTERVAL_MS = 10_000;
/** Older than this and the worker counts as unhealthy (six missed beats). */
export const HEARTBEAT_MAX_AGE_MS = 60_000;
const CHECK_TIMEOUT_MS = 5_000;

export function heartbeatFile(dataDir: string, instance: string = os.hostname()): string {
  return path.join(dataDir, `worker-heartbeat.${instance.replace(/[^\w.-]/g, '_')}`);
}

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

/** Milliseconds since the last beat, or undefined when there is none (never started, stopped, unreadable). */
export async function heartbeatAgeMs(
  dataDir: string,
  instance?: string,
  now: number = Date.now(),
): Promise<number | undefined> {
  try {
    const text = (await fs.readFile(heartbeatFile(dataDir, instance), 'utf8')).trim();
    const written = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    return Number.isFinite(written) ? Math.max(0, now - written) : undefined;
  } catch {
    return undefined;
  }
}
