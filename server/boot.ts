import type { AppConfig } from './config.ts';
import { resolveDatabase } from './db/connect.ts';
import { createOrm, migrate } from './db/orm.ts';
import { log, setLogLevel } from './log.ts';
import { closeQueues, createQueues, createRedis } from './queue.ts';
import type { AppDeps } from './trpc/context.ts';

export interface Booted extends AppDeps {
  shutdown(): Promise<void>;
}

/** Connects the database (migrating it) and Redis: what both the server and the workers need. */
export async function boot(config: AppConfig): Promise<Booted> {
  setLogLevel(config.logLevel);
  const database = await resolveDatabase(config);
  const orm = await createOrm(database.url);
  const applied = await migrate(orm);
  if (applied.length) log.info('migrations applied', { applied });
  const redis = createRedis(config.redisUrl, 'producer');
  redis.on('error', (err) => log.warn('redis', { error: err.message }));
  const queues = createQueues(redis, config.redisPrefix);
  return {
    config,
    orm,
    redis,
    queues,
    async shutdown() {
      await closeQueues(queues);
      redis.disconnect();
      await orm.close();
      await database.stop();
    },
  };
}
