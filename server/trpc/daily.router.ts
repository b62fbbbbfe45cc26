import {
  zDailyAppendInput,
  zDailyDay,
  zDailyExportInput,
  zDailyGetInput,
  zDailyList,
  zDailyListInput,
  zDailyNote,
  zDailySaveInput,
  zDailySaveResult,
  zMoveToDailyInput,
} from '../../src/schemas/daily.ts';
import { zExportResult } from '../../src/schemas/notes.ts';
import {
  appendToToday,
  exportDay,
  getDay,
  listDays,
  moveHighlightsToDaily,
  saveDay,
} from '../domain/daily/daily.service.ts';
import { protectedProcedure, router } from './init.ts';
import { changesExports } from './push-trigger.ts';

export const dailyRouter = router({
  /** A day's note (today, in the user's time zone, by default) and that day's extra entries. */
  get: protectedProcedure
    .input(zDailyGetInput)
    .output(zDailyDay)
    .query(({ ctx, input }) => getDay(ctx.em, ctx.user, input.date)),

  save: changesExports
    .input(zDailySaveInput)
    .output(zDailySaveResult)
    .mutation(({ ctx, input }) => saveDay(ctx.em, ctx.user, input)),

  append: changesExports
    .input(zDailyAppendInput)
    .output(zDailyNote)
    .mutation(({ ctx, input }) => appendToToday(ctx.em, ctx.user, input.text)),

  list: protectedProcedure
    .input(zDailyListInput)
    .output(zDailyList)
    .query(({ ctx, input }) => listDays(ctx.em, ctx.user, input)),

  moveHighlights: changesExports
    .input(zMoveToDailyInput)
    .output(zDailyNote)
    .mutation(({ ctx, input }) => moveHighlightsToDaily(ctx.em, ctx.user, input.ids, input.target)),

  export: protectedProcedure
    .input(zDailyExportInput)
    .output(zExportResult)
    .query(({ ctx, input }) => exportDay(ctx.em, ctx.user, input)),
});
