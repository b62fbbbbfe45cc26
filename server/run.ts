import type { Server } from 'node:http';
import { startWorkers } from '../jobs/workers.ts';
import { createApp } from './app.ts';
import { boot, onShutdownSignal } from './boot.ts';
import { ConfigError, loadConfig } from './config.ts';
import { log } from './log.ts';
import { ensureRedis, RedisUnavailableError } from './redis-launcher.ts';

export async function runServer(options: { withWorkers: boolean; launchRedis?: boolean }): Promise<void> {
  const startedAt = performance.now();
  try {
    const config = loadConfig();
    if (options.launchRedis) await ensureRedis(config.redisUrl, config.dataDir);
    const deps = await boot(config);
    const workers = options.withWorkers || config.inlineWorkers ? await startWorkers(deps) : undefined;
    const app = createApp(deps);
    const server: Server = app.listen(config.port, config.host);
    await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
    const url =
      config.publicUrl ?? `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
    log.info('Margin is ready', {
      url,
      region: config.region,
      ms: Math.round(performance.now() - startedAt),
    });
    onShutdownSignal(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await workers?.close();
      await deps.shutdown();
    });
  } catch (err) {
    if (err instanceof ConfigError || err instanceof RedisUnavailableError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
