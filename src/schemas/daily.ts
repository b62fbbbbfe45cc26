import { z } from 'zod';
import { zHighlightId, zStoredId } from '../rules/id.ts';
import { zText } from '../rules/text.ts';

export const DAILY_TEXT_MAX = 200_000;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The years a daily note may be dated in. */
export const DAY_YEAR_MIN = 1970;
export const DAY_YEAR_MAX = 9999;

/** A real calendar date 'YYYY-MM-DD' (no 2026-02-30) in DAY_YEAR_MIN..DAY_YEAR_MAX. */
export function isCalendarDay(value: string): boolean {
  const match = DAY_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < DAY_YEAR_MIN || year > DAY_YEAR_MAX || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A day the client names (input). */
export const zDay = zText().max(10, 'errors.invalidDate').refine(isCalendarDay, 'errors.invalidDate');
/** A day the server sends back: its shape only, as stored. */
const zStoredDay = z.string().regex(DAY_PATTERN);

export const zDailyGetInput = z.object({ date: zDay.optional() });
export const zDailyNote = z.object({
  id: z.string(),
  date: zStoredDay,
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
  text: zText().max(DAILY_TEXT_MAX, 'errors.tooLong'),
  baseText: zText().max(DAILY_TEXT_MAX),
  baseVersion: z.number().int().min(0),
});
export type DailySaveInput = z.infer<typeof zDailySaveInput>;
export const zDailySaveResult = zDailyNote.extend({ merged: z.boolean() });
export type DailySaveResult = z.infer<typeof zDailySaveResult>;

export const zDailyAppendInput = z.object({
  text: zText().trim().min(1, 'errors.cannotBeEmpty').max(20_000, 'errors.tooLong'),
});

export const zDailyListInput = z.object({
  limit: z.number().int().min(1).max(100).default(30),
  cursor: zDay.nullish(),
  q: zText().max(200).optional(),
});
export const zDailyListItem = z.object({
  id: z.string(),
  date: zStoredDay,
  excerpt: z.string(),
  updatedAt: z.date(),
});
export const zDailyList = z.object({ items: z.array(zDailyListItem), nextCursor: zStoredDay.nullable() });

export const zMoveToDailyInput = z.object({
  ids: z.array(zHighlightId).min(1).max(200),
  target: z.enum(['today', 'new']),
});
/** The daily note a move wrote, and the move's id, which undoes it. */
export const zDailyMoved = zDailyNote.extend({ moveId: z.string() });
export type DailyMoved = z.infer<typeof zDailyMoved>;
export const zUndoMoveToDailyInput = z.object({ moveId: zStoredId });
/** The day whose notes an undone move changed. */
export const zDailyMoveUndone = z.object({ date: zStoredDay });

export const zDailyExportInput = z.object({ date: zDay, format: z.enum(['markdown', 'text']) });
export const zTimeZoneInput = z.object({
  timeZone: zText()
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
