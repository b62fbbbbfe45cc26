import type { EntityManager } from '@mikro-orm/postgresql';
import { DelayedError } from 'bullmq';
import { clock } from '../server/clock.ts';
import type { AppDeps } from '../server/deps.ts';
import { deliverPending } from '../server/domain/webhooks/deliver.ts';
import { QUEUES } from '../src/jobs.ts';
import { jobProcessor } from './job-processor.ts';

/**
 * Webhook jobs. A delivery run that ends on a failure puts its job back, delayed until the
 * endpoint's retry time, without using one of the job's attempts (those are for the run itself
 * failing: the database gone, say); the deliveries behind the failed one wait with it.
 */
export function webhookProcessor(em: () => EntityManager, deps: Pick<AppDeps, 'config'>) {
  const env = { allowedTargets: deps.config.fetchAllowTargets, membership: deps.config };
  return jobProcessor(QUEUES.webhook, {
    webhookDeliver: async ({ endpointId }, job) => {
      const run = await deliverPending(em(), endpointId, env);
      if (run.state === 'retry') {
        await job.moveToDelayed(
          Date.now() + Math.max(0, run.retryAt.getTime() - clock.now().getTime()),
          job.token,
        );
        throw new DelayedError();
      }
      return run;
    },
  });
}
