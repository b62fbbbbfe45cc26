import {
  zDailyAppendInput,
  zDailyDay,
  zDailyExportInput,
  zDailyGetInput,
  zDailyList,
  zDailyListInput,
  zDailyMoved,
  zDailyMoveUndone,
  zDailyNote,
  zDailySaveInput,
  zDailySaveResult,
  zMoveToDailyInput,
  zUndoMoveToDailyInput,
} from '../../src/schemas/daily.ts';
import { zExportResult } from '../../src/schemas/notes.ts';
import {
  appendToToday,
  exportDay,
  getDay,
  listDays,
  moveHighlightsToDaily,
  saveDay,
  undoMoveToDaily,
} from '../domain/daily/daily.service.ts';
import { protectedProcedure, router } from './init.ts';

export const dailyRouter = router({
  /** A day's note (today, in the user's time zone, by default) and that day's extra entries. */
  get: protectedProcedure
    .input(zDailyGetInput)
    .output(zDailyDay)
    .query(({ ctx, input }) => getDay(ctx.em, ctx.user, input.date)),

  save: protectedProcedure
    .input(zDailySaveInput)
    .output(zDailySaveResult)
    .mutation(({ ctx, input }) => saveDay(ctx, ctx.user, input)),

  append: protectedProcedure
    .input(zDailyAppendInput)
    .output(zDailyNote)
    .mutation(({ ctx, input }) => appendToToday(ctx, ctx.user, input.text)),

  list: protectedProcedure
    .input(zDailyListInput)
    .output(zDailyList)
    .query(({ ctx, input }) => listDays(ctx.em, ctx.user, input)),

  moveHighlights: protectedProcedure
    .input(zMoveToDailyInput)
    .output(zDailyMoved)
    .mutation(({ ctx, input }) => moveHighlightsToDaily(ctx, ctx.user, input.ids, input.target)),

  /** Takes a move's quotes out of the daily note again (what `moveHighlights` answered names it). */
  undoMove: protectedProcedure
    .input(zUndoMoveToDailyInput)
    .output(zDailyMoveUndone)
    .mutation(({ ctx, input }) => undoMoveToDaily(ctx, ctx.user, input.moveId)),

  export: protectedProcedure
    .input(zDailyExportInput)
    .output(zExportResult)
    .query(({ ctx, input }) => exportDay(ctx.em, ctx.user, input)),
});
