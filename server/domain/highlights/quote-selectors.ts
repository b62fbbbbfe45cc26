import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { describeRange } from '../../../src/anchoring/index.ts';
import { AppError } from '../../../src/errors.ts';
import { newId } from '../../../src/rules/id.ts';
import type { Highlight, Selectors } from '../../../src/schemas/highlights.ts';
import type { zApiCreateHighlight } from '../../../src/schemas/openapi.ts';
import type { User } from '../../db/entities/index.ts';
import type { ChangeDeps } from '../changes.ts';
import { getNote } from '../notes/notes.service.ts';
import { createHighlight } from './highlights.service.ts';

/**
 * Selectors for a quote given without them (the Open API lets scripts send only the text): its
 * first occurrence in the note's stored text. A quote the text does not contain is refused.
 */
async function selectorsForQuote(
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

/**
 * A highlight as scripts make one: placed by selectors or by `quote` alone, its text the passage
 * when none is given, with the caller's id (a retry returns the same highlight) or a new one.
 */
export async function highlightPassage(
  deps: ChangeDeps,
  user: User,
  input: z.output<typeof zApiCreateHighlight>,
): Promise<Highlight> {
  const { quote, ...fields } = input;
  const selectors =
    fields.selectors ??
    (quote ? await selectorsForQuote(deps.em, user, { noteId: fields.noteId, quote }) : null);
  const text = fields.text || (selectors ? selectors.quote.exact : '');
  return createHighlight(deps, user, { ...fields, id: fields.id ?? newId(), selectors, text });
}
