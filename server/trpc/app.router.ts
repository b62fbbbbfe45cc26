import { router } from './init.ts';
import { systemRouter } from './system.router.ts';

export const appRouter = router({
  system: systemRouter,
});

export type AppRouter = typeof appRouter;
