import type { Server } from 'node:http';
import { startWorkers } from '../jobs/workers.ts';
import { createApp } from './app.ts';
import { ensureClientBuild } from './client-build.ts';
import { loadConfig } from './config.ts';
import { boot } from './deps.ts';
import { delay, Lifecycle, startProcess } from './lifecycle.ts';
import { log, setLogLevel } from './log.ts';
import { ensureRedis } from './redis-launcher.ts';

export async function runServer(options: {
  withWorkers: boolean;
  /** The single-machine launcher: start a redis-server when none answers. */
  launchRedis?: boolean;
  /** The single-machine launcher: build the client when the build is missing or stale. */
  buildClient?: boolean;
}): Promise<void> {
  const startedAt = performance.now();
  const lifecycle = new Lifecycle();
  await startProcess(lifecycle, async () => {
    const config = loadConfig();
    setLogLevel(config.logLevel);
    if (options.buildClient) ensureClientBuild();
    if (options.launchRedis) {
      const redis = await ensureRedis(config.redisUrl, config.dataDir);
      if (redis) lifecycle.add('redis-server', () => redis.stop());
    }
    const deps = await boot(config);
    lifecycle.add('database and queues', () => deps.shutdown());
    if (options.withWorkers || config.inlineWorkers) {
      const workers = await startWorkers(deps);
      lifecycle.add('workers', (drainUntil) => workers.close(drainUntil));
    }
    const server: Server = createApp(deps).listen(config.port, config.host);
    await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
    lifecycle.add('http', (drainUntil) => closeHttp(server, drainUntil));
    const url =
      config.publicUrl ?? `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
    log.info('Margin is ready', {
      url,
      region: config.region,
      ms: Math.round(performance.now() - startedAt),
    });
  });
}

/** Stops accepting, lets requests in flight finish until `drainUntil`, then cuts what is left. */
async function closeHttp(server: Server, drainUntil: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = delay(drainUntil - Date.now()).then(() => server.closeAllConnections());
  await Promise.race([closed, cut]);
  await closed;
}
