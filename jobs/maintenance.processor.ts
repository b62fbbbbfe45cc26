import fs from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Job } from 'bullmq';
import { clock } from '../server/clock.ts';
import { Session } from '../server/db/entities/index.ts';
import type { AppDeps } from '../server/deps.ts';
import { purgeTrash } from '../server/domain/notes/organise.service.ts';
import { sweepStaleClips } from '../server/domain/notes/sweep.ts';
import { reindexSearch, searchIndexVersion } from '../server/domain/search/reindex.ts';
import type { Queues } from '../server/queue.ts';
import { zDeleteUserFilesJob } from '../src/jobs.ts';
import { SEARCH_TOKENS_VERSION } from '../src/search/tokens.ts';

export const MAINTENANCE_JOBS = {
  purgeExpiredSessions: 'purge-expired-sessions',
  deleteUserFiles: 'delete-user-files',
  sweepStaleClips: 'sweep-stale-clips',
  purgeTrash: 'purge-trash',
  reindexSearch: 'reindex-search',
} as const;

/** One re-index per tokenizer version: BullMQ keeps a single job under this id. */
export const reindexSearchJobId = (version = SEARCH_TOKENS_VERSION) => `reindex-search-${version}`;

/**
 * Queues the one-time search re-index when the stored vectors were built by an older tokenizer
 * (called as the workers start). Several workers starting together queue one job; one that
 * failed every attempt is retried, so restarting after fixing the cause is enough.
 */
export async function queueSearchReindexIfBehind(em: EntityManager, queues: Queues): Promise<boolean> {
  if ((await searchIndexVersion(em)) >= SEARCH_TOKENS_VERSION) return false;
  const jobId = reindexSearchJobId();
  const existing = await queues.maintenance.getJob(jobId);
  if (existing && (await existing.isFailed())) await existing.retry();
  else await queues.maintenance.add(MAINTENANCE_JOBS.reindexSearch, {}, { jobId });
  return true;
}

/** Deletes sessions past their expiry. Idempotent: running it twice deletes nothing more. */
export async function purgeExpiredSessions(em: EntityManager, now = clock.now()): Promise<number> {
  return em.nativeDelete(Session, { expiresAt: { $lte: now } });
}

/** Where a user's stored files live (uploads, exports); removed when the account is deleted. */
export function userFilesDir(dataDir: string, userId: number): string {
  return path.join(dataDir, 'files', String(userId));
}

export function maintenanceProcessor(em: () => EntityManager, deps: Pick<AppDeps, 'config' | 'queues'>) {
  const dataDir = deps.config.dataDir;
  return async (job: Job): Promise<unknown> => {
    switch (job.name) {
      case MAINTENANCE_JOBS.purgeTrash:
        return { deleted: await purgeTrash(em()) };
      case MAINTENANCE_JOBS.sweepStaleClips:
        return sweepStaleClips(em(), deps.queues);
      case MAINTENANCE_JOBS.reindexSearch:
        return reindexSearch(em());
      case MAINTENANCE_JOBS.purgeExpiredSessions:
        return { deleted: await purgeExpiredSessions(em()) };
      case MAINTENANCE_JOBS.deleteUserFiles: {
        const { userId } = zDeleteUserFilesJob.parse(job.data);
        await fs.rm(userFilesDir(dataDir, userId), { recursive: true, force: true });
        return { userId };
      }
      default:
        throw new Error(`unknown maintenance job ${job.name}`);
    }
  };
}
