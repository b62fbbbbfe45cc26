import { type Processor, Worker } from 'bullmq';
import type { AppDeps } from '../server/deps.ts';
import { ExtractionPool } from '../server/domain/clip/extract-in-worker.ts';
import { createMailer } from '../server/domain/mail/mailer.ts';
import { delay } from '../server/lifecycle.ts';
import { log } from '../server/log.ts';
import { createRedis } from '../server/queue.ts';
import { QUEUES, type QueueName } from '../src/jobs.ts';
import { clipProcessor } from './clip.processor.ts';
import { mailProcessor } from './mail.processor.ts';
import {
  MAINTENANCE_JOBS,
  maintenanceProcessor,
  queueSearchReindexIfBehind,
} from './maintenance.processor.ts';

export interface RunningWorkers {
  /**
   * Stops taking jobs and lets those in flight finish until `drainUntil` (epoch ms); jobs still
   * running then are left to BullMQ's stalled-job check, which hands them to another worker.
   */
  close(drainUntil?: number): Promise<void>;
}

/** Builds every worker and upserts the repeatable schedules. Each worker forks its own EntityManager. */
export async function startWorkers(deps: AppDeps): Promise<RunningWorkers> {
  const connection = createRedis(deps.config.redisUrl, 'worker');
  connection.on('error', (err) => log.warn('redis (worker)', { error: err.message }));
  const em = () => deps.orm.em.fork();
  const mailer = createMailer(deps.config);
  const pool = new ExtractionPool({ size: 2, timeoutMs: deps.config.extractTimeoutMs });
  const clipEnv = { pool, allowedTargets: deps.config.fetchAllowTargets };
  const processors: Partial<Record<QueueName, { processor: Processor; concurrency: number }>> = {
    [QUEUES.maintenance]: { processor: maintenanceProcessor(em, deps), concurrency: 1 },
    [QUEUES.mail]: { processor: mailProcessor(mailer), concurrency: 4 },
    [QUEUES.clip]: { processor: clipProcessor(em, clipEnv), concurrency: 4 },
  };
  const workers = Object.entries(processors).map(([name, spec]) => {
    const worker = new Worker(name, spec.processor, {
      connection,
      prefix: deps.config.redisPrefix,
      concurrency: spec.concurrency,
      lockDuration: deps.config.jobLockMs,
      stalledInterval: deps.config.jobLockMs,
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
  await deps.queues.maintenance.upsertJobScheduler(
    MAINTENANCE_JOBS.purgeTrash,
    { every: 6 * 60 * 60_000 },
    { name: MAINTENANCE_JOBS.purgeTrash },
  );
  await deps.queues.maintenance.upsertJobScheduler(
    MAINTENANCE_JOBS.sweepStaleClips,
    { every: 5 * 60_000 },
    { name: MAINTENANCE_JOBS.sweepStaleClips },
  );
  if (await queueSearchReindexIfBehind(em(), deps.queues)) log.info('search re-index queued');
  log.info('workers started', { queues: Object.keys(processors) });
  return {
    async close(drainUntil) {
      const drained = Promise.all(workers.map((w) => w.close())).then(() => true);
      const finished =
        drainUntil === undefined
          ? await drained
          : await Promise.race([drained, delay(drainUntil - Date.now()).then(() => false)]);
      if (!finished) log.warn('jobs still running at shutdown are left for the stalled-job check');
      mailer.close();
      await pool.close();
      connection.disconnect();
    },
  };
}
