import express, { type Router } from 'express';
import type { AppDeps } from '../deps.ts';
import { seedRoutes } from './seed.routes.ts';
import { v1Routes } from './v1.routes.ts';

/**
 * The pull API for note-tool plugins: Margin's `/api/sync/v1` and the seed product's paths. The
 * device flow's confirmation page (`/page/gentoken/<serviceId>/<clientId>`) is the client's:
 * these routes leave every GET to the static router after them.
 */
export function syncRoutes(deps: AppDeps): Router {
  const router = express.Router();
  router.use('/api/sync/v1', v1Routes(deps));
  router.use(seedRoutes(deps));
  return router;
}
