import { type Processor, Worker } from 'bullmq';
import type { AppDeps } from '../server/deps.ts';
import { ExtractionPool } from '../server/domain/clip/extract-in-worker.ts';
import { createMailer } from '../server/domain/mail/mailer.ts';
import { delay } from '../server/lifecycle.ts';
import { log } from '../server/log.ts';
import { createRedis, upsertSchedules } from '../server/queue.ts';
import { QUEUE_CONCURRENCY, QUEUE_NAMES, QUEUES, type QueueName } from '../src/jobs.ts';
import { clipProcessor } from './clip.processor.ts';
import { imagesProcessor } from './images.processor.ts';
import { mailProcessor } from './mail.processor.ts';
import { maintenanceProcessor, queueSearchReindexIfBehind } from './maintenance.processor.ts';
import { pushProcessor } from './push.processor.ts';
import { webhookProcessor } from './webhook.processor.ts';

export interface RunningWorkers {
  /**
   * Stops taking jobs and lets those in flight finish until `drainUntil` (epoch ms); jobs still
   * running then are left to BullMQ's stalled-job check, which hands them to another worker.
   */
  close(drainUntil?: number): Promise<void>;
}

export interface WorkerOptions {
  /** The pool clip jobs extract in (the workers close it); default: one of EXTRACT_POOL_SIZE threads. */
  extractionPool?: ExtractionPool;
}

/** Builds every worker and upserts the repeatable schedules. Each worker forks its own EntityManager. */
export async function startWorkers(deps: AppDeps, options: WorkerOptions = {}): Promise<RunningWorkers> {
  const connection = createRedis(deps.config.redisUrl, 'worker');
  connection.on('error', (err) => log.warn('redis (worker)', { error: err.message }));
  const em = () => deps.orm.em.fork();
  const mailer = createMailer(deps.config);
  const pool =
    options.extractionPool ??
    new ExtractionPool({ size: deps.config.extractPoolSize, timeoutMs: deps.config.extractTimeoutMs });
  const clipEnv = {
    pool,
    allowedTargets: deps.config.fetchAllowTargets,
    queues: deps.queues,
    config: deps.config,
  };
  const imageEnv = { storage: deps.storage, allowedTargets: deps.config.fetchAllowTargets };
  // Each parses a job's payload with the registry's schema before its handler runs.
  const processors: Record<QueueName, Processor> = {
    [QUEUES.maintenance]: maintenanceProcessor(em, deps),
    [QUEUES.mail]: mailProcessor(mailer, em),
    [QUEUES.clip]: clipProcessor(em, clipEnv),
    [QUEUES.images]: imagesProcessor(em, imageEnv),
    [QUEUES.push]: pushProcessor(em, deps),
    [QUEUES.webhook]: webhookProcessor(em, deps),
  };
  const workers = QUEUE_NAMES.map((name) => {
    const worker = new Worker(name, processors[name], {
      connection,
      prefix: deps.config.redisPrefix,
      concurrency: name === QUEUES.clip ? deps.config.clipConcurrency : QUEUE_CONCURRENCY[name],
      lockDuration: deps.config.jobLockMs,
      stalledInterval: deps.config.jobLockMs,
    });
    worker.on('failed', (job, err) =>
      log.warn('job failed', { queue: name, id: job?.id, attempts: job?.attemptsMade, error: err.message }),
    );
    return worker;
  });
  await upsertSchedules(deps.queues);
  if (await queueSearchReindexIfBehind(em(), deps.queues)) log.info('search re-index queued');
  log.info('workers started', {
    queues: QUEUE_NAMES,
    clipConcurrency: deps.config.clipConcurrency,
    extractPoolSize: deps.config.extractPoolSize,
  });
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
