import { type Job, type JobType, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import {
  DEFAULT_JOB_OPTIONS,
  JOB_KEYS,
  JOBS,
  type JobInput,
  type JobKey,
  type JobSpec,
  type JobSubject,
  jobKeyOf,
  parseJobPayload,
  QUEUE_NAMES,
  type QueueName,
} from '../src/jobs.ts';
import { log } from './log.ts';

/**
 * One connection factory for BullMQ. Workers need `maxRetriesPerRequest: null` (blocking
 * commands); producers fail fast instead so an HTTP request never hangs on a dead Redis.
 */
export function createRedis(url: string, role: 'producer' | 'worker' | 'probe'): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    enableOfflineQueue: role !== 'probe',
    connectTimeout: 2_000,
    lazyConnect: role === 'probe',
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    // While Redis replays its file, ask again soon rather than after its (often long) estimate.
    maxLoadingRetryTime: 100,
  });
}

export type Queues = Record<QueueName, Queue>;

export function createQueues(connection: Redis, prefix: string): Queues {
  const make = (name: QueueName) => {
    const queue = new Queue(name, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
    // Connection errors are reported by /healthz; without a listener they would be thrown.
    queue.on('error', (err) => log.debug('queue error', { queue: name, error: err.message }));
    return queue;
  };
  return Object.fromEntries(QUEUE_NAMES.map((name) => [name, make(name)])) as Queues;
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((q) => q.close()));
}

/** A payload its job's schema refuses: a bug in the producer, never a job on the queue. */
export class InvalidJobPayloadError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidJobPayloadError';
  }
}

function parsePayload<K extends JobKey>(key: K, payload: JobInput<K>): { spec: JobSpec; data: unknown } {
  const parsed = parseJobPayload(key, payload);
  if (!parsed.ok) throw new InvalidJobPayloadError(parsed.reason);
  return { spec: JOBS[key], data: parsed.data };
}

/** What the operator's configuration sets on a job as it is added: a delay, and its retries' first backoff. */
interface EnqueueTiming {
  delay?: number;
  backoffDelay?: number;
}

/**
 * Adds a job of the registry (src/jobs.ts): the payload is parsed with the job's schema first (a
 * bad one throws InvalidJobPayloadError and adds nothing), then added under the job's name, id
 * and options. Adding a job whose id exists is a no-op; for a debounced job, see `JobSpec.debounced`.
 */
export async function enqueue<K extends JobKey>(
  queues: Queues,
  key: K,
  payload: JobInput<K>,
  timing: EnqueueTiming = {},
): Promise<Job> {
  const { spec, data } = parsePayload(key, payload);
  const options = {
    ...spec.options,
    ...(timing.delay !== undefined && { delay: timing.delay }),
    ...(timing.backoffDelay !== undefined && {
      backoff: { ...spec.options.backoff, delay: timing.backoffDelay },
    }),
  };
  const id = spec.jobId(data);
  return queues[spec.queue].add(
    spec.name,
    data,
    spec.debounced
      ? { ...options, deduplication: { id, keepLastIfActive: true } }
      : { ...options, jobId: id },
  );
}

/** The job `enqueue` would add for this payload, if it is (still) in Redis. */
export async function findJob<K extends JobKey>(
  queues: Queues,
  key: K,
  payload: JobInput<K>,
): Promise<Job | undefined> {
  const { spec, data } = parsePayload(key, payload);
  const queue = queues[spec.queue];
  const id = spec.debounced ? await queue.getDeduplicationJobId(spec.jobId(data)) : spec.jobId(data);
  return id ? queue.getJob(id) : undefined;
}

/** Every state a job can be removed from (an active one is locked by the worker running it). */
const REMOVABLE_STATES: JobType[] = [
  'waiting',
  'delayed',
  'prioritized',
  'waiting-children',
  'completed',
  'failed',
];
const SCAN_PAGE = 500;

/**
 * Removes every job, in every state it can be removed from, that its registered `about` says is
 * about the account or one of the codes (deleting an account). Returns how many were removed.
 */
export async function removeJobsAbout(
  queues: Queues,
  subject: { userId: number; codeIds: readonly number[] },
): Promise<number> {
  const names = (about: JobSubject) =>
    about.userId === subject.userId || (about.codeId !== undefined && subject.codeIds.includes(about.codeId));
  let removed = 0;
  for (const queueName of QUEUE_NAMES) {
    if (!JOB_KEYS.some((key) => JOBS[key].queue === queueName && JOBS[key].about)) continue;
    const queue = queues[queueName];
    const ids: string[] = [];
    for (const state of REMOVABLE_STATES) {
      for (let start = 0; ; start += SCAN_PAGE) {
        const jobs = await queue.getJobs([state], start, start + SCAN_PAGE - 1, true);
        for (const job of jobs) {
          const key = jobKeyOf(queueName, job.name);
          const spec: JobSpec | undefined = key && JOBS[key];
          const parsed = key && parseJobPayload(key, job.data);
          if (job.id && spec?.about && parsed?.ok && names(spec.about(parsed.data))) ids.push(job.id);
        }
        if (jobs.length < SCAN_PAGE) break;
      }
    }
    // Removed once the scan is over, so that no page shifts under it.
    for (const id of ids) removed += await queue.remove(id);
  }
  return removed;
}

/** Creates or updates the scheduler of every job the registry schedules (the workers, as they start). */
export async function upsertSchedules(queues: Queues): Promise<void> {
  for (const key of JOB_KEYS) {
    const spec: JobSpec = JOBS[key];
    if (!spec.schedule) continue;
    const { data } = parsePayload(key, {});
    await queues[spec.queue].upsertJobScheduler(spec.jobId(data), spec.schedule, {
      name: spec.name,
      data,
      opts: spec.options,
    });
  }
}
