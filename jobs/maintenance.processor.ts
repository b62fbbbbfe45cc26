import type { EntityManager } from '@mikro-orm/postgresql';
import type { Job } from 'bullmq';
import { Session } from '../server/db/entities/index.ts';

export const MAINTENANCE_JOBS = {
  purgeExpiredSessions: 'purge-expired-sessions',
} as const;

/** Deletes sessions past their expiry. Idempotent: running it twice deletes nothing more. */
export async function purgeExpiredSessions(em: EntityManager, now = new Date()): Promise<number> {
  return em.nativeDelete(Session, { expiresAt: { $lte: now } });
}

export function maintenanceProcessor(em: () => EntityManager) {
  return async (job: Job): Promise<unknown> => {
    switch (job.name) {
      case MAINTENANCE_JOBS.purgeExpiredSessions:
        return { deleted: await purgeExpiredSessions(em()) };
      default:
        throw new Error(`unknown maintenance job ${job.name}`);
    }
  };
}
