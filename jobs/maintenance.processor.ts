import fs from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { clock } from '../server/clock.ts';
import { Session } from '../server/db/entities/index.ts';
import type { AppDeps } from '../server/deps.ts';
import { purgeStoredFiles } from '../server/domain/images/stored-images.ts';
import { downgradeExpiredMembers, remindExpiringMembers } from '../server/domain/membership/expiry.ts';
import { closeStaleOrders } from '../server/domain/membership/orders.ts';
import { purgeTrash } from '../server/domain/notes/organise.service.ts';
import { sweepStaleClips } from '../server/domain/notes/sweep.ts';
import { purgeIdempotencyRecords } from '../server/domain/openapi/idempotency.ts';
import { reindexSearch, searchIndexVersion } from '../server/domain/search/reindex.ts';
import { purgeSpentDeviceTickets } from '../server/domain/sync/tokens.ts';
import { purgeSpentUploads, userUploadsPrefix } from '../server/domain/uploads/uploads.service.ts';
import { sweepWebhooks } from '../server/domain/webhooks/queue.ts';
import { publicBaseUrl } from '../server/public-base-url.ts';
import { enqueue, findJob, type Queues } from '../server/queue.ts';
import { JOBS, QUEUES } from '../src/jobs.ts';
import { SEARCH_TOKENS_VERSION } from '../src/search/tokens.ts';
import { jobProcessor } from './job-processor.ts';

/** The BullMQ names of the maintenance jobs, as the registry gives them. */
export const MAINTENANCE_JOBS = {
  purgeExpiredSessions: JOBS.purgeExpiredSessions.name,
  deleteUserFiles: JOBS.deleteUserFiles.name,
  purgeStoredFiles: JOBS.purgeStoredFiles.name,
  sweepStaleClips: JOBS.sweepStaleClips.name,
  purgeTrash: JOBS.purgeTrash.name,
  reindexSearch: JOBS.reindexSearch.name,
  sweepWebhooks: JOBS.sweepWebhooks.name,
  membership: JOBS.membership.name,
};

/** The id of the one re-index job for the current tokenizer version. */
export const reindexSearchJobId = () => JOBS.reindexSearch.jobId({});

/**
 * Queues the one-time search re-index when the stored vectors were built by an older tokenizer
 * (called as the workers start). Several workers starting together queue one job; one that
 * failed every attempt is retried, so restarting after fixing the cause is enough.
 */
export async function queueSearchReindexIfBehind(em: EntityManager, queues: Queues): Promise<boolean> {
  if ((await searchIndexVersion(em)) >= SEARCH_TOKENS_VERSION) return false;
  const existing = await findJob(queues, 'reindexSearch', {});
  if (existing && (await existing.isFailed())) await existing.retry();
  else await enqueue(queues, 'reindexSearch', {});
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

export function maintenanceProcessor(
  em: () => EntityManager,
  deps: Pick<AppDeps, 'config' | 'queues' | 'storage'>,
) {
  const dataDir = deps.config.dataDir;
  return jobProcessor(QUEUES.maintenance, {
    purgeTrash: async () => ({ deleted: await purgeTrash(em(), deps.queues) }),
    purgeStoredFiles: async ({ userId }) => ({ rows: await purgeStoredFiles(em(), deps.storage, userId) }),
    sweepStaleClips: () => sweepStaleClips(em(), deps.queues),
    sweepWebhooks: () => sweepWebhooks(em(), deps.queues),
    membership: async () => ({
      downgraded: await downgradeExpiredMembers(em()),
      reminded: await remindExpiringMembers(em(), {
        queues: deps.queues,
        publicUrl: publicBaseUrl(deps.config),
      }),
      closedOrders: await closeStaleOrders(em()),
    }),
    reindexSearch: () => reindexSearch(em()),
    purgeExpiredSessions: async () => ({
      deleted: await purgeExpiredSessions(em()),
      deviceTickets: await purgeSpentDeviceTickets(em()),
      uploads: await purgeSpentUploads(em(), deps.storage),
      // The sweep behind each deletion's own purge job (one lost with its enqueue, say).
      storedFiles: await purgeStoredFiles(em(), deps.storage),
      idempotencyRecords: await purgeIdempotencyRecords(em()),
    }),
    deleteUserFiles: async ({ userId }) => {
      await fs.rm(userFilesDir(dataDir, userId), { recursive: true, force: true });
      // The same prefix in the configured store (a bucket, when it is not this directory).
      await deps.storage.removePrefix(`${userId}/`);
      await deps.storage.removePrefix(userUploadsPrefix(userId));
      return { userId };
    },
  });
}
