import { type Processor, Worker } from 'bullmq';
import { createMailer } from '../server/domain/mail/mailer.ts';
import { log } from '../server/log.ts';
import { createRedis } from '../server/queue.ts';
import type { AppDeps } from '../server/trpc/context.ts';
import { QUEUES, type QueueName } from '../src/jobs.ts';
import { mailProcessor } from './mail.processor.ts';
import { MAINTENANCE_JOBS, maintenanceProcessor } from './maintenance.processor.ts';

export interface RunningWorkers {
  close(): Promise<void>;
}

/** Builds every worker and upserts the repeatable schedules. Each worker forks its own EntityManager. */
export async function startWorkers(deps: AppDeps): Promise<RunningWorkers> {
  const connection = createRedis(deps.config.redisUrl, 'worker');
  connection.on('error', (err) => log.warn('redis (worker)', { error: err.message }));
  const em = () => deps.orm.em.fork();
  const mailer = createMailer(deps.config);
  const processors: Partial<Record<QueueName, { processor: Processor; concurrency: number }>> = {
    [QUEUES.maintenance]: { processor: maintenanceProcessor(em, deps.config.dataDir), concurrency: 1 },
    [QUEUES.mail]: { processor: mailProcessor(mailer), concurrency: 4 },
  };
  const workers = Object.entries(processors).map(([name, spec]) => {
    const worker = new Worker(name, spec.processor, {
      connection,
      prefix: deps.config.redisPrefix,
      concurrency: spec.concurrency,
    });
    worker.on('failed', (job, err) =>
      log.warn('job failed', { queue: name, id: job?.id, attempts: job?.attemptsMade, error: err.message }),
    );
    return worker;
  });
  await deps.queues.maintenance.upsertJobScheduler(
    MAINTENANCE_JOBS.purgeExpiredSessions,
    { every: 60 * 60_000 },
    { name: MAINTENANCE_JOBS.purgeExpiredSessions },
  );
  log.info('workers started', { queues: Object.keys(processors) });
  return {
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      mailer.close();
      connection.disconnect();
    },
  };
}
