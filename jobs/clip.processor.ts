import type { EntityManager } from '@mikro-orm/postgresql';
import { UnrecoverableError } from 'bullmq';
import { type ClipEnvironment, clipNote, PermanentClipError } from '../server/domain/notes/clip-note.ts';
import { failClip, scheduleClipRetry } from '../server/domain/notes/clip-state.ts';
import { log } from '../server/log.ts';
import { QUEUES } from '../src/jobs.ts';
import { jobProcessor } from './job-processor.ts';

/**
 * Clip jobs: transient failures (network, 5xx) retry with backoff and the note waits in status
 * 3; a permanent failure, or the last attempt, ends in status 2 with a reason — never silently.
 */
export function clipProcessor(em: () => EntityManager, env: ClipEnvironment) {
  return jobProcessor(QUEUES.clip, {
    clip: async (clip, job) => {
      try {
        return await clipNote(em(), clip, env);
      } catch (error) {
        const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        if (error instanceof PermanentClipError || lastAttempt) {
          const reason = error instanceof PermanentClipError ? error.reason : 'fetch:unavailable';
          if (await failClip(em(), clip, reason)) log.info('clip failed', { noteId: clip.noteId, reason });
          throw new UnrecoverableError(reason);
        }
        await scheduleClipRetry(em(), clip);
        throw error;
      }
    },
  });
}
