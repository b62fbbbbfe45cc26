import type { EntityManager } from '@mikro-orm/postgresql';
import { NoteKind } from '../../../src/enums.ts';
import { AppError } from '../../../src/errors.ts';
import type { ReadingProgress, SaveProgressInput } from '../../../src/schemas/notes.ts';
import { clock } from '../../clock.ts';
import { Note, type User } from '../../db/entities/index.ts';

/**
 * Remembers where the user left one of their web notes. Reading is no change to the note: its
 * `updatedAt` (the "recently updated" sort) stays, and so does its sync change sequence (the
 * change trigger ignores these columns), so scrolling never sends a sync or a push.
 */
export async function saveReadingProgress(
  em: EntityManager,
  user: User,
  { id, offset, fraction }: SaveProgressInput,
): Promise<ReadingProgress> {
  const changed = await em.nativeUpdate(
    Note,
    { id, user: user.id, kind: NoteKind.web },
    { readingOffset: offset, readingFraction: fraction, readAt: clock.now() },
  );
  if (!changed) throw new AppError('NOT_FOUND');
  return { offset, fraction };
}
