import type { EntityManager } from '@mikro-orm/postgresql';
import { DelayedError, UnrecoverableError } from 'bullmq';
import type { ComputePool } from '../server/domain/compute/compute-pool.ts';
import { type PushDeps, queuePush } from '../server/domain/sync/push/push.service.ts';
import {
  PushAddressRefusedError,
  PushRefusedError,
  PushRetryLaterError,
  pushEnv,
} from '../server/domain/sync/push/push-http.ts';
import { failPush, runPush } from '../server/domain/sync/push/run-push.ts';
import { log } from '../server/log.ts';
import { publicBaseUrl } from '../server/public-base-url.ts';
import { QUEUES } from '../src/jobs.ts';
import { jobProcessor } from './job-processor.ts';

/**
 * Push jobs. A tool's rate limit puts the job back, delayed as long as the tool asked, without
 * using an attempt; refused credentials unbind the integration and end the job; any other failure
 * is retried with backoff, and the last one is shown on the settings page, never silently.
 */
export function pushProcessor(em: () => EntityManager, deps: PushDeps & { compute: ComputePool }) {
  const env = pushEnv(deps.config);
  const baseUrl = publicBaseUrl(deps.config);
  return jobProcessor(QUEUES.push, {
    push: async (push, job) => {
      try {
        const result = await runPush(em(), push, env, baseUrl, deps.config, deps.compute);
        // Queued while this one runs, the next push starts when it ends (after the debounce).
        if (result.status === 'done' && result.waiting) await queuePush(deps, push.userId, push.app, true);
        return result;
      } catch (error) {
        if (error instanceof PushRetryLaterError) {
          await job.moveToDelayed(Date.now() + error.afterMs, job.token);
          throw new DelayedError();
        }
        if (error instanceof PushRefusedError) {
          // The run has unbound the integration (unless it was connected anew meanwhile).
          log.info('push credentials refused; unbound', { userId: push.userId, app: push.app });
          throw new UnrecoverableError(error.message);
        }
        if (error instanceof PushAddressRefusedError) {
          // No retry reaches an address the operator has not allowed: said at once, not in minutes.
          await failPush(em(), push, error);
          throw new UnrecoverableError(error.message);
        }
        if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await failPush(em(), push, error);
        throw error;
      }
    },
  });
}
