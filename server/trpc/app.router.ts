import { accountRouter } from './account.router.ts';
import { authRouter } from './auth.router.ts';
import { dailyRouter } from './daily.router.ts';
import { feedbackRouter } from './feedback.router.ts';
import { foldersRouter } from './folders.router.ts';
import { highlightsRouter } from './highlights.router.ts';
import { router } from './init.ts';
import { membershipRouter } from './membership.router.ts';
import { notesRouter } from './notes.router.ts';
import { openapiRouter } from './openapi.router.ts';
import { settingsRouter } from './settings.router.ts';
import { syncRouter } from './sync.router.ts';
import { systemRouter } from './system.router.ts';
import { webhooksRouter } from './webhooks.router.ts';

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  account: accountRouter,
  notes: notesRouter,
  highlights: highlightsRouter,
  folders: foldersRouter,
  daily: dailyRouter,
  sync: syncRouter,
  webhooks: webhooksRouter,
  openapi: openapiRouter,
  membership: membershipRouter,
  feedback: feedbackRouter,
  settings: settingsRouter,
});

export type AppRouter = typeof appRouter;
