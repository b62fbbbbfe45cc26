import { z } from 'zod';
import { zText } from '../rules/text.ts';

export const TAG_MAX = 64;
export const TAGS_PER_ITEM_MAX = 20;

/** A tag on a note or a highlight; the comma is the separator of the stored joined form. */
export const zTag = zText()
  .trim()
  .min(1, 'errors.cannotBeEmpty')
  .max(TAG_MAX, 'errors.tagTooLong')
  .refine((t) => !t.includes(','), 'errors.tagComma');
export const zTags = z
  .array(zTag)
  .max(TAGS_PER_ITEM_MAX)
  .transform((tags) => [...new Set(tags)]);
