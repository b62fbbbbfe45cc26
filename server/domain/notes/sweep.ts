import type { EntityManager } from '@mikro-orm/postgresql';
import { ClipStatus } from '../../../src/enums.ts';
import { jobIds } from '../../../src/jobs.ts';
import { clock } from '../../clock.ts';
import { Note } from '../../db/entities/index.ts';
import type { Queues } from '../../queue.ts';
import { enqueueClip } from './clip.service.ts';
import { markClipFailed } from './clip-note.ts';

export const STALE_CLIP_MS = 15 * 60_000;
export const MAX_CLIP_ATTEMPTS = 3;

/**
 * No note stays queued or processing forever: one whose job has vanished (Redis lost it, a
 * worker died mid-retry) is queued again, and after three attempts it fails with a reason.
 */
export async function sweepStaleClips(
  em: EntityManager,
  queues: Queues,
  now = clock.now(),
): Promise<{ requeued: number; failed: number }> {
  const stale = await em.find(
    Note,
    {
      clipStatus: { $in: [ClipStatus.queued, ClipStatus.processing] },
      updatedAt: { $lt: new Date(now.getTime() - STALE_CLIP_MS) },
    },
    { limit: 500, orderBy: { updatedAt: 'asc' } },
  );
  let requeued = 0;
  let failed = 0;
  for (const note of stale) {
    const job = await queues.clip.getJob(jobIds.clip(note.id, note.clipAttempts));
    const state = job ? await job.getState() : 'missing';
    if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized') continue;
    if (note.clipAttempts >= MAX_CLIP_ATTEMPTS) {
      await markClipFailed(em, note.id, 'stale');
      failed++;
      continue;
    }
    note.clipAttempts += 1;
    note.clipStatus = ClipStatus.queued;
    await em.flush();
    await enqueueClip(queues, note);
    requeued++;
  }
  return { requeued, failed };
}
