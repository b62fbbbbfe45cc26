import type { EntityManager } from '@mikro-orm/postgresql';
import { type Job, UnrecoverableError } from 'bullmq';
import {
  type ClipEnvironment,
  clipNote,
  markClipFailed,
  markClipQueued,
  PermanentClipError,
} from '../server/domain/notes/clip-note.ts';
import { log } from '../server/log.ts';
import { zClipJob } from '../src/jobs.ts';

/**
 * Clip jobs: transient failures (network, 5xx) retry with backoff and the note waits in status
 * 3; a permanent failure, or the last attempt, ends in status 2 with a reason — never silently.
 */
export function clipProcessor(em: () => EntityManager, env: ClipEnvironment) {
  return async (job: Job): Promise<string> => {
    const { noteId } = zClipJob.parse(job.data);
    try {
      return await clipNote(em(), noteId, env);
    } catch (error) {
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (error instanceof PermanentClipError || lastAttempt) {
        const reason = error instanceof PermanentClipError ? error.reason : 'fetch:unavailable';
        await markClipFailed(em(), noteId, reason);
        log.info('clip failed', { noteId, reason });
        throw new UnrecoverableError(reason);
      }
      await markClipQueued(em(), noteId);
      throw error;
    }
  };
}
