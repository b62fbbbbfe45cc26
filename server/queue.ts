import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { DEFAULT_JOB_OPTIONS, QUEUES, type QueueName } from '../src/jobs.ts';
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
  return { clip: make(QUEUES.clip), mail: make(QUEUES.mail), maintenance: make(QUEUES.maintenance) };
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((q) => q.close()));
}
