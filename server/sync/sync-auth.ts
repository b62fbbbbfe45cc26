import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { isPullApp, type PullApp } from '../../src/schemas/sync.ts';
import type { SyncCaller } from '../domain/sync/pull.service.ts';
import { authenticateSyncToken } from '../domain/sync/tokens.ts';
import { invalidToken } from './sync-errors.ts';
import { tokenOf } from './sync-http.ts';

/** Who a sync call acts for: the token's user and the note tool the token was made for. */
export type { SyncCaller };

/**
 * The caller of a sync call, from its token; `client` is the plugin's id, noted as the token's
 * last user. An unknown or revoked token, or one made for another tool than `expectedApp` (or
 * for the browser extension), is refused alike. The account's language is kept for the messages
 * of later errors.
 */
export async function syncCaller(
  em: EntityManager,
  req: Request,
  res: Response,
  input: { client: string | null; expectedApp?: PullApp },
): Promise<SyncCaller> {
  const token = tokenOf(req);
  const found = token ? await authenticateSyncToken(em, token, input.client) : null;
  // The browser extension's token is for the Open API, never for pulling.
  const app = found?.token.app;
  if (!found || !app || !isPullApp(app) || (input.expectedApp && app !== input.expectedApp))
    throw invalidToken();
  res.locals.language = found.user.language;
  return { user: found.user, app };
}
