import { z } from 'zod';
import { zNoteId } from '../rules/note-id.ts';

export const DAILY_TEXT_MAX = 200_000;
export const zDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'errors.invalidInput');

export const zDailyGetInput = z.object({ date: zDay.optional() });
export const zDailyNote = z.object({
  id: z.string(),
  date: zDay,
  text: z.string(),
  version: z.number().int(),
  updatedAt: z.date().nullable(),
});
export type DailyNote = z.infer<typeof zDailyNote>;

/** A day's note plus the extra entries ("new daily note") of that day. */
export const zDailyDay = zDailyNote.extend({ entries: z.array(zDailyNote) });

/** An autosave: the editor's text and the version and text it started from. */
export const zDailySaveInput = z.object({
  date: zDay,
  text: z.string().max(DAILY_TEXT_MAX, 'errors.tooLong'),
  baseText: z.string().max(DAILY_TEXT_MAX),
  baseVersion: z.number().int().min(0),
});
export const zDailySaveResult = zDailyNote.extend({ merged: z.boolean() });

export const zDailyAppendInput = z.object({
  text: z.string().trim().min(1, 'errors.cannotBeEmpty').max(20_000, 'errors.tooLong'),
});

export const zDailyListInput = z.object({
  limit: z.number().int().min(1).max(100).default(30),
  cursor: zDay.nullish(),
  q: z.string().max(200).optional(),
});
export const zDailyListItem = z.object({
  id: z.string(),
  date: zDay,
  excerpt: z.string(),
  updatedAt: z.date(),
});
export const zDailyList = z.object({ items: z.array(zDailyListItem), nextCursor: zDay.nullable() });

export const zMoveToDailyInput = z.object({
  ids: z.array(zNoteId).min(1).max(200),
  target: z.enum(['today', 'new']),
});

export const zDailyExportInput = z.object({ date: zDay, format: z.enum(['markdown', 'text']) });
export const zTimeZoneInput = z.object({
  timeZone: z
    .string()
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'errors.invalidInput'),
});
