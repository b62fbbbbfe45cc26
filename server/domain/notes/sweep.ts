import type { EntityManager } from '@mikro-orm/postgresql';
import { ClipStatus } from '../../../src/enums.ts';
import { clock } from '../../clock.ts';
import { Note } from '../../db/entities/index.ts';
import { findJob, type Queues } from '../../queue.ts';
import { giveUpStaleClip, requeueClip } from './clip-state.ts';

export const STALE_CLIP_MS = 15 * 60_000;
export const MAX_CLIP_ATTEMPTS = 3;

/**
 * No note stays queued or processing forever: one whose job has vanished (Redis lost it, a
 * worker died mid-retry) is queued again, and after three attempts it fails with a reason. Each
 * move applies only if the note is still as the sweep saw it, so a worker that takes the job
 * meanwhile wins.
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
    const job = await findJob(queues, 'clip', { noteId: note.id, attempt: note.clipAttempts });
    const state = job ? await job.getState() : 'missing';
    if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized') continue;
    const seen = { from: note.clipStatus as ClipStatus, attempt: note.clipAttempts };
    if (note.clipAttempts >= MAX_CLIP_ATTEMPTS) {
      if (await giveUpStaleClip(em, note.id, seen)) failed++;
    } else if (await requeueClip(em, queues, note.id, 'stale-swept', seen)) requeued++;
  }
  return { requeued, failed };
}
