import type { EntityManager } from '@mikro-orm/postgresql';
import { type Job, UnrecoverableError } from 'bullmq';
import {
  type ClipEnvironment,
  clipPage,
  markClipFailed,
  markClipQueued,
  PermanentClipError,
} from '../server/domain/pages/clip-page.ts';
import { log } from '../server/log.ts';
import { zClipJob } from '../src/jobs.ts';

/**
 * Clip jobs: transient failures (network, 5xx) retry with backoff and the page waits in status
 * 3; a permanent failure, or the last attempt, ends in status 2 with a reason — never silently.
 */
export function clipProcessor(em: () => EntityManager, env: ClipEnvironment) {
  return async (job: Job): Promise<string> => {
    const { pageId } = zClipJob.parse(job.data);
    try {
      return await clipPage(em(), pageId, env);
    } catch (error) {
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (error instanceof PermanentClipError || lastAttempt) {
        const reason = error instanceof PermanentClipError ? error.reason : 'fetch:unavailable';
        await markClipFailed(em(), pageId, reason);
        log.info('clip failed', { pageId, reason });
        throw new UnrecoverableError(reason);
      }
      await markClipQueued(em(), pageId);
      throw error;
    }
  };
}
