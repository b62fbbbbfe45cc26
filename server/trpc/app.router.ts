import { accountRouter } from './account.router.ts';
import { authRouter } from './auth.router.ts';
import { dailyRouter } from './daily.router.ts';
import { highlightsRouter } from './highlights.router.ts';
import { router } from './init.ts';
import { libraryRouter } from './library.router.ts';
import { notesRouter } from './notes.router.ts';
import { systemRouter } from './system.router.ts';

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  account: accountRouter,
  notes: notesRouter,
  highlights: highlightsRouter,
  library: libraryRouter,
  daily: dailyRouter,
});

export type AppRouter = typeof appRouter;
