import type { EntityManager } from '@mikro-orm/postgresql';
import { ClipStatus } from '../../../src/enums.ts';
import type { ClipJob } from '../../../src/jobs.ts';
import { clock } from '../../clock.ts';
import type { Note } from '../../db/entities/index.ts';
import { enqueue, type Queues } from '../../queue.ts';

// The one writer of a note's clip state: `clip_status` and what belongs to its transitions
// (`clip_error`, `clip_attempts`, `clipped_at`). Every change is an event of CLIP_TRANSITIONS,
// applied as one guarded UPDATE … WHERE id = ? AND clip_status IN (<from>) [AND clip_attempts = ?]
// that answers whether the note moved: a worker, the sweeper and the user acting on one note at
// once cannot both move it out of the same state.
//
// Each clip attempt is its own job (its id names the attempt). Events of a job carry the attempt
// it was queued for, so a job another attempt has overtaken (the page saved again, the clip swept
// and queued anew) changes nothing.

export type ClipEvent =
  | 'saved'
  | 'started'
  | 'resumed'
  | 'succeeded'
  | 'retry-scheduled'
  | 'failed-permanently'
  | 'stale-swept'
  | 'stale-given-up'
  | 'user-retry'
  | 'saved-again'
  | 'html-saved-again';

export interface ClipTransition {
  /** The states the event applies in; none for `saved`, which creates the row. */
  from: readonly ClipStatus[];
  to: ClipStatus;
  /** `keep`: the same attempt (its job) goes on; `next`: a new attempt, with a job of its own. */
  attempts: 'keep' | 'next';
  /** `clear`: no reason; `given`: the caller's reason; `stale`: the sweeper's; `keep`: untouched. */
  error: 'keep' | 'clear' | 'given' | 'stale';
  /** Sets `clipped_at` to now. */
  clipped?: true;
  /** Applies only to the attempt the caller names (a job's own, or the one the sweeper saw). */
  perAttempt: boolean;
}

const { queued, processing, done, failed } = ClipStatus;

export const CLIP_TRANSITIONS: Readonly<Record<ClipEvent, ClipTransition>> = {
  /** A new note starts queued at attempt 1: the INSERT that creates it (NEW_NOTE_CLIP_STATE). */
  saved: { from: [], to: queued, attempts: 'keep', error: 'clear', perAttempt: false },
  /** A worker takes the attempt's job. */
  started: { from: [queued], to: processing, attempts: 'keep', error: 'keep', perAttempt: true },
  /** The job is taken again after its worker died mid-parse (BullMQ's stalled-job check). */
  resumed: { from: [processing], to: processing, attempts: 'keep', error: 'keep', perAttempt: true },
  succeeded: {
    from: [processing],
    to: done,
    attempts: 'keep',
    error: 'clear',
    clipped: true,
    perAttempt: true,
  },
  /** A transient failure: the same job runs again after its backoff. */
  'retry-scheduled': { from: [processing], to: queued, attempts: 'keep', error: 'keep', perAttempt: true },
  /** A failure not worth retrying, or the job's last attempt; from queued when it never started. */
  'failed-permanently': {
    from: [queued, processing],
    to: failed,
    attempts: 'keep',
    error: 'given',
    perAttempt: true,
  },
  /** The sweeper found the attempt's job gone: a new attempt. */
  'stale-swept': {
    from: [queued, processing],
    to: queued,
    attempts: 'next',
    error: 'clear',
    perAttempt: true,
  },
  /** The sweeper found the job gone and attempts used up. */
  'stale-given-up': {
    from: [queued, processing],
    to: failed,
    attempts: 'keep',
    error: 'stale',
    perAttempt: true,
  },
  /** The user asks for a failed clip again. */
  'user-retry': { from: [failed], to: queued, attempts: 'next', error: 'clear', perAttempt: false },
  /** The URL of a failed clip is saved again: the user plainly wants it. */
  'saved-again': { from: [failed], to: queued, attempts: 'next', error: 'clear', perAttempt: false },
  /**
   * The page is sent again with its HTML: whatever the state, the new HTML is parsed. Two such
   * saves both move the note (one after the other): each brings HTML of its own.
   */
  'html-saved-again': {
    from: [queued, processing, done, failed],
    to: queued,
    attempts: 'next',
    error: 'clear',
    perAttempt: false,
  },
};

/** The clip state a note is created with (the `saved` event). */
export const NEW_NOTE_CLIP_STATE = { clipStatus: queued, clipAttempts: 1, clipError: null } as const;

/** A note nothing clips (a daily note) is created done, with no attempt: no job, no sweep. */
export const UNCLIPPED_NOTE_CLIP_STATE = { clipStatus: done, clipAttempts: 0, clipError: null } as const;

/** The reason codes fit the column. */
const MAX_REASON = 64;

export interface ClipGuard {
  /** The attempt the caller acts for; required by the events that apply per attempt. */
  attempt?: number;
  /** The state the caller saw: the event applies only if the note is still in it. */
  from?: ClipStatus;
  /** Why it failed (`failed-permanently`). */
  reason?: string;
}

/**
 * Applies one event to a note: a single guarded UPDATE. Answers the note's attempt after the move,
 * or null when it did not move (the event does not apply in the note's state or to its attempt,
 * the note is gone, or someone else moved it first).
 */
export async function moveClip(
  em: EntityManager,
  noteId: string,
  event: ClipEvent,
  guard: ClipGuard = {},
): Promise<number | null> {
  const t = CLIP_TRANSITIONS[event];
  if (t.perAttempt && guard.attempt === undefined) throw new Error(`clip event ${event} needs the attempt`);
  if (t.error === 'given' && !guard.reason) throw new Error(`clip event ${event} needs a reason`);
  const from = guard.from === undefined ? t.from : t.from.filter((s) => s === guard.from);
  if (!from.length) return null;

  const now = clock.now();
  const sets = ['"clip_status" = ?', '"updated_at" = ?'];
  const values: unknown[] = [t.to, now];
  if (t.attempts === 'next') sets.push('"clip_attempts" = "clip_attempts" + 1');
  if (t.error === 'clear') sets.push('"clip_error" = null');
  else if (t.error !== 'keep') {
    sets.push('"clip_error" = ?');
    values.push((t.error === 'stale' ? 'stale' : (guard.reason ?? '')).slice(0, MAX_REASON));
  }
  if (t.clipped) {
    sets.push('"clipped_at" = ?');
    values.push(now);
  }
  const where = [`"id" = ?`, `"clip_status" in (${from.map(() => '?').join(', ')})`];
  values.push(noteId, ...from);
  if (guard.attempt !== undefined) {
    where.push('"clip_attempts" = ?');
    values.push(guard.attempt);
  }
  const [row] = await em.execute<{ clip_attempts: number }[]>(
    `update "note" set ${sets.join(', ')} where ${where.join(' and ')} returning "clip_attempts"`,
    values,
  );
  return row ? Number(row.clip_attempts) : null;
}

/** Adds the job of the note's current attempt. */
export async function enqueueClip(queues: Queues, note: Pick<Note, 'id' | 'clipAttempts'>): Promise<void> {
  await enqueue(queues, 'clip', { noteId: note.id, attempt: note.clipAttempts });
}

export type RequeueEvent = 'stale-swept' | 'user-retry' | 'saved-again' | 'html-saved-again';

export interface RequeueOptions extends Pick<ClipGuard, 'from' | 'attempt'> {
  /** Writes that commit with the move or not at all (a save's new HTML); the job is added after. */
  within?: (em: EntityManager) => Promise<unknown>;
}

class NotMoved extends Error {}

/**
 * The one way a clip is queued again (the sweeper, the user's retry, saving the page again): the
 * note moves to queued with the next attempt, and that attempt's job is added once the move is
 * committed, so the worker always finds what it is asked to do. Answers whether it moved; a Note
 * passed in is refreshed when it did.
 */
export async function requeueClip(
  em: EntityManager,
  queues: Queues,
  note: Note | string,
  event: RequeueEvent,
  options: RequeueOptions = {},
): Promise<boolean> {
  const noteId = typeof note === 'string' ? note : note.id;
  const attempt = await moveClipToQueue(em, noteId, event, options);
  if (attempt === null) return false;
  if (typeof note !== 'string') await em.refresh(note);
  await enqueueClip(queues, { id: noteId, clipAttempts: attempt });
  return true;
}

/**
 * requeueClip's move without the queueing (for a caller that queues after its own commit): the
 * attempt to queue, or null when the clip was not moved (and `within` wrote nothing).
 */
export async function moveClipToQueue(
  em: EntityManager,
  noteId: string,
  event: RequeueEvent,
  options: RequeueOptions = {},
): Promise<number | null> {
  const { within, ...guard } = options;
  if (!within) return moveClip(em, noteId, event, guard);
  return em
    .transactional(async (tem) => {
      await within(tem);
      const moved = await moveClip(tem, noteId, event, guard);
      if (moved === null) throw new NotMoved();
      return moved;
    })
    .catch((error: unknown) => {
      if (error instanceof NotMoved) return null;
      throw error;
    });
}

/** The worker takes a job: its note moves to processing (or stays there, the job resumed after a crash). */
export async function startClip(em: EntityManager, job: ClipJob): Promise<boolean> {
  const guard = { attempt: job.attempt };
  return (
    (await moveClip(em, job.noteId, 'started', guard)) !== null ||
    (await moveClip(em, job.noteId, 'resumed', guard)) !== null
  );
}

/** Done: called in the transaction that stores the result, which it should roll back if false. */
export async function finishClip(em: EntityManager, job: ClipJob): Promise<boolean> {
  return (await moveClip(em, job.noteId, 'succeeded', { attempt: job.attempt })) !== null;
}

/** Between retries the note waits in the queue again (status 3). */
export async function scheduleClipRetry(em: EntityManager, job: ClipJob): Promise<boolean> {
  return (await moveClip(em, job.noteId, 'retry-scheduled', { attempt: job.attempt })) !== null;
}

/** The final state of a clip that will not be retried: status 2 with its reason. */
export async function failClip(em: EntityManager, job: ClipJob, reason: string): Promise<boolean> {
  return (await moveClip(em, job.noteId, 'failed-permanently', { attempt: job.attempt, reason })) !== null;
}

/** The sweeper gives up on a note it saw in `seen` (status and attempt): it fails as stale. */
export async function giveUpStaleClip(
  em: EntityManager,
  noteId: string,
  seen: { from: ClipStatus; attempt: number },
): Promise<boolean> {
  return (await moveClip(em, noteId, 'stale-given-up', seen)) !== null;
}
