import type { EntityManager } from '@mikro-orm/postgresql';
import { describeRange } from '../../../src/anchoring/index.ts';
import { AppError } from '../../../src/errors.ts';
import type { Selectors } from '../../../src/schemas/highlights.ts';
import type { User } from '../../db/entities/index.ts';
import { getNote } from '../notes/notes.service.ts';

/**
 * Selectors for a quote given without them (the Open API lets scripts send only the text): its
 * first occurrence in the note's stored text. A quote the text does not contain is refused.
 */
export async function selectorsForQuote(
  em: EntityManager,
  user: User,
  input: { noteId: string; quote: string },
): Promise<Selectors> {
  const { content } = await getNote(em, user, input.noteId);
  const text = content?.text ?? '';
  const start = text.indexOf(input.quote);
  if (start < 0) throw new AppError('BAD_REQUEST', 'errors.quoteNotFound');
  return describeRange(text, start, start + input.quote.length);
}
