// The launcher: the one module that knows both the HTTP server (`app.ts`) and the workers
// (`jobs/`), so it alone may run them in one process (`npm start`, INLINE_WORKERS=1). Each side is
// loaded only when it runs: a worker container never loads the HTTP app, a server without inline
// workers never loads the processors. The import rule in biome.json exempts this file alone.
import { createServer, type RequestListener, type Server } from 'node:http';
import { ensureBuilds } from './client-build.ts';
import { loadConfig } from './config.ts';
import { boot } from './deps.ts';
import { delay, Lifecycle, startProcess } from './lifecycle.ts';
import { log, setLogLevel } from './log.ts';
import { publicBaseUrl } from './public-base-url.ts';
import { ensureRedis } from './redis-launcher.ts';
import type { Role } from './role.ts';

export async function runServer(options: {
  withWorkers: boolean;
  /** The single-machine launcher: start a redis-server when none answers. */
  launchRedis?: boolean;
  /** The single-machine launcher: build the client, plugins and extension when missing or stale. */
  buildAssets?: boolean;
}): Promise<void> {
  const startedAt = performance.now();
  const lifecycle = new Lifecycle();
  await startProcess(lifecycle, async () => {
    const config = loadConfig();
    setLogLevel(config.logLevel);
    if (options.buildAssets) ensureBuilds();
    if (options.launchRedis) {
      const redis = await ensureRedis(config.redisUrl, config.dataDir);
      if (redis) lifecycle.add('redis-server', () => redis.stop());
    }
    const deps = await boot(config);
    lifecycle.add('database and queues', () => deps.shutdown());
    if (options.withWorkers || config.inlineWorkers) {
      const { startWorkers } = await import('../jobs/workers.ts');
      const workers = await startWorkers(deps);
      lifecycle.add('workers', (drainUntil) => workers.close(drainUntil));
    }
    const { appMetrics, createApp } = await import('./app.ts');
    const metrics = appMetrics(deps);
    const server = await listen(createApp(deps, metrics), config.port, config.host);
    lifecycle.add('http', (drainUntil) => closeHttp(server, drainUntil));
    const { listener } = config.metrics;
    if (listener) {
      const { createMetricsApp } = await import('./http/operator.routes.ts');
      const metricsServer = await listen(createMetricsApp(deps, metrics), listener.port, listener.host);
      lifecycle.add('metrics http', (drainUntil) => closeHttp(metricsServer, drainUntil));
    }
    log.info('Margin is ready', {
      url: publicBaseUrl(config),
      ...(listener ? { metrics: `http://${listener.host}:${listener.port}/metrics` } : {}),
      region: config.region,
      ms: Math.round(performance.now() - startedAt),
    });
  });
}

/**
 * The container's entry (`server/cli/role.ts`): ROLE=server runs the HTTP server (with the workers
 * when INLINE_WORKERS=1), ROLE=worker the workers alone (`jobs/main.ts`, as `npm run worker`).
 */
export async function runRole(role: Role): Promise<void> {
  if (role === 'worker') await import('../jobs/main.ts');
  else await runServer({ withWorkers: false });
}

/** Listens on `host:port`; rejects when it cannot (the port taken, the address not ours). */
async function listen(app: RequestListener, port: number, host: string): Promise<Server> {
  const server = createServer(app).listen(port, host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return server;
}

/** Stops accepting, lets requests in flight finish until `drainUntil`, then cuts what is left. */
async function closeHttp(server: Server, drainUntil: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = delay(drainUntil - Date.now()).then(() => server.closeAllConnections());
  await Promise.race([closed, cut]);
  await closed;
}
