import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { PullApp } from '../../src/schemas/sync.ts';
import type { SyncToken, User } from '../db/entities/index.ts';
import { authenticateSyncToken } from '../domain/sync/tokens.ts';
import { invalidToken } from './sync-errors.ts';
import { tokenOf } from './sync-http.ts';

/** Who a sync call acts for: the token's user and the note tool the token was made for. */
export interface SyncCaller {
  user: User;
  token: SyncToken;
  app: PullApp;
}

/**
 * The caller of a sync call, from its token; `client` is the plugin's id, noted as the token's
 * last user. An unknown or revoked token, or one made for another tool than `expectedApp`, is
 * refused alike. The account's language is kept for the messages of later errors.
 */
export async function syncCaller(
  em: EntityManager,
  req: Request,
  res: Response,
  input: { client: string | null; expectedApp?: PullApp },
): Promise<SyncCaller> {
  const token = tokenOf(req);
  const found = token ? await authenticateSyncToken(em, token, input.client) : null;
  if (!found || (input.expectedApp && found.token.app !== input.expectedApp)) throw invalidToken();
  res.locals.language = found.user.language;
  return { user: found.user, token: found.token, app: found.token.app };
}
