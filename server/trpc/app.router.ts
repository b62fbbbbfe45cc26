import { accountRouter } from './account.router.ts';
import { authRouter } from './auth.router.ts';
import { router } from './init.ts';
import { systemRouter } from './system.router.ts';

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  account: accountRouter,
});

export type AppRouter = typeof appRouter;
