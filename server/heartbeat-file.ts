// Where the worker's heartbeat lives and how old it may be: the contract between the worker that
// writes it (`jobs/heartbeat.ts`) and the container's health probe that reads it
// (`server/cli/healthcheck.ts`). One file per host, because scaled workers share the /data volume.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const HEARTBEAT_INTERVAL_MS = 10_000;
/** Older than this and the worker counts as unhealthy (six missed beats). */
export const HEARTBEAT_MAX_AGE_MS = 60_000;

export function heartbeatFile(dataDir: string, instance: string = os.hostname()): string {
  return path.join(dataDir, `worker-heartbeat.${instance.replace(/[^\w.-]/g, '_')}`);
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
