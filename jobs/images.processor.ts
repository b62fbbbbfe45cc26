import type { EntityManager } from '@mikro-orm/postgresql';
import { type ImageEnvironment, storeNoteImages } from '../server/domain/images/store-images.ts';
import { log } from '../server/log.ts';
import { QUEUES } from '../src/jobs.ts';
import { jobProcessor } from './job-processor.ts';

/**
 * Image storing: images a site could not serve this time are tried again with backoff; the last
 * attempt keeps them as refusals. The note never fails for its images: the reader shows a
 * refused image's alt text. What was refused, and why, is the job's result (and logged).
 */
export function imagesProcessor(em: () => EntityManager, env: ImageEnvironment) {
  return jobProcessor(QUEUES.images, {
    storeImages: async (payload, job) => {
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const result = await storeNoteImages(em(), payload, env, { lastAttempt });
      if (typeof result === 'object' && Object.keys(result.refused).length)
        log.info('images refused', { noteId: payload.noteId, refused: result.refused });
      return result;
    },
  });
}
