// The launcher: the one module that knows both the HTTP server (`app.ts`) and the workers
// (`jobs/`), so it alone may run them in one process (`npm start`, INLINE_WORKERS=1). Each side is
// loaded only when it runs: a worker container never loads the HTTP app, a server without inline
// workers never loads the processors. The import rule in biome.json exempts this file alone.
import { createServer, type RequestListener, type Server } from 'node:http';
import { ensureBuilds } from './client-build.ts';
import { loadConfig } from './config.ts';
import { resolveDatabase } from './db/connect.ts';
import { delay, Lifecycle, startProcess } from './lifecycle.ts';
import { log, setLogLevel } from './log.ts';
import { publicBaseUrl } from './public-base-url.ts';
import { ensureRedis } from './redis-launcher.ts';
import type { Role } from './role.ts';

/** When each part of the start was done, in ms since the process began (the ready line carries them). */
type Phases = Record<string, number>;

function marking<T>(phases: Phases, name: string, promise: Promise<T>): Promise<T> {
  return promise.then((value) => {
    phases[name] = Math.round(performance.now());
    return value;
  });
}

/** The app's own modules, loaded while the database and Redis start (their import is most of a start's CPU). */
async function loadModules(withWorkers: boolean) {
  const [deps, app, workers] = await Promise.all([
    import('./deps.ts'),
    import('./app.ts'),
    withWorkers ? import('../jobs/workers.ts') : undefined,
  ]);
  return { boot: deps.boot, app, startWorkers: workers?.startWorkers };
}

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
    const phases: Phases = { config: Math.round(performance.now()) };
    // What waits on other processes starts first; the builds' check and the imports run meanwhile.
    const redis = options.launchRedis
      ? marking(
          phases,
          'redis',
          lifecycle.track('redis-server', ensureRedis(config.redisUrl, config.dataDir), async (r) =>
            r?.stop(),
          ),
        )
      : undefined;
    const database = marking(
      phases,
      'postgres',
      lifecycle.track('database', resolveDatabase(config), (db) => db.stop()),
    );
    if (options.buildAssets) {
      ensureBuilds();
      phases.builds = Math.round(performance.now());
    }
    const modules = marking(phases, 'modules', loadModules(options.withWorkers || config.inlineWorkers));
    modules.catch(() => {}); // awaited below, after the starts it may outlast
    await redis;
    const { boot, app, startWorkers } = await modules;
    const deps = await boot(config, await database);
    phases.migrations = Math.round(performance.now());
    lifecycle.add('queues and the ORM', () => deps.shutdown());
    const metrics = app.appMetrics(deps);
    const server = await listen(app.createApp(deps, metrics), config.port, config.host);
    lifecycle.add('http', (drainUntil) => closeHttp(server, drainUntil));
    phases.http = Math.round(performance.now());
    const { listener } = config.metrics;
    if (listener) {
      const { createMetricsApp } = await import('./http/operator.routes.ts');
      const metricsServer = await listen(createMetricsApp(deps, metrics), listener.port, listener.host);
      lifecycle.add('metrics http', (drainUntil) => closeHttp(metricsServer, drainUntil));
    }
    if (startWorkers) {
      // After the listen: while Redis still replays its file, the workers wait for it, requests need not.
      const workers = await startWorkers(deps);
      lifecycle.add('workers', (drainUntil) => workers.close(drainUntil));
      phases.workers = Math.round(performance.now());
    }
    log.info('Margin is ready', {
      url: publicBaseUrl(config),
      ...(listener ? { metrics: `http://${listener.host}:${listener.port}/metrics` } : {}),
      region: config.region,
      ms: Math.round(performance.now() - startedAt),
      phases,
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
