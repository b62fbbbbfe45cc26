import type { Request, Response } from 'express';
import { type BootData, HOME_LIST_INPUT } from '../../src/boot-data.ts';
import type { AppDeps } from '../deps.ts';
import { errorFields, log } from '../log.ts';
import { appRouter } from './app.router.ts';
import { requestContext } from './context.ts';

/**
 * What index.html carries for the first render, read through the procedures the client would
 * call, so it has their exact shape: who is signed in, their colour theme settings and, on `/`
 * with no query (the list with no filters), the list's first chunk. A list that fails is left
 * for the client to ask for again.
 */
export async function bootData(deps: AppDeps, req: Request, res: Response): Promise<BootData> {
  const caller = appRouter.createCaller(await requestContext(deps, req, res));
  const me = await caller.auth.me();
  if (!me) return { me };
  // The theme, highlight colours and tooltip style the first render draws with.
  const settings = await caller.settings.get();
  if (req.originalUrl !== '/') return { me, settings };
  try {
    return { me, settings, homeList: await caller.notes.list(HOME_LIST_INPUT) };
  } catch (error) {
    log.warn('the first list chunk for index.html failed', errorFields(error));
    return { me, settings };
  }
}
