import { type Job, UnrecoverableError } from 'bullmq';
import {
  type JobKey,
  type JobKeyOn,
  type JobPayload,
  jobKeyOf,
  parseJobPayload,
  type QueueName,
} from '../src/jobs.ts';

/** What runs each job of one queue, given its parsed payload. */
export type JobHandlers<Q extends QueueName> = {
  [K in JobKeyOn<Q>]: (payload: JobPayload<K>, job: Job) => Promise<unknown>;
};

/**
 * The processor of one queue's worker: it finds the registered job by name and parses `job.data`
 * with that job's schema before the handler runs. A job of no registered name, or whose payload
 * does not parse, never reaches a handler: it fails at once (no retries: it would not parse any
 * better) with the reason in its failedReason.
 */
export function jobProcessor<Q extends QueueName>(queue: Q, handlers: JobHandlers<Q>) {
  return async (job: Job): Promise<unknown> => {
    const key = jobKeyOf(queue, job.name);
    if (!key) throw new UnrecoverableError(`no job named "${job.name}" runs on the ${queue} queue`);
    const parsed = parseJobPayload(key, job.data);
    if (!parsed.ok) throw new UnrecoverableError(parsed.reason);
    const handler = (handlers as unknown as Record<JobKey, (payload: unknown, job: Job) => Promise<unknown>>)[
      key
    ];
    return handler(parsed.data, job);
  };
}
