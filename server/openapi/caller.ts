import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { AppError } from '../../src/errors.ts';
import type { ApiScope } from '../../src/schemas/api-tokens.ts';
import type { User } from '../db/entities/index.ts';
import type { AppDeps } from '../deps.ts';
import { quotaOf, requireFeature } from '../domain/membership/gate.ts';
import { authenticateApiToken } from '../domain/openapi/api-tokens.ts';
import { countHits, OPEN_API_WINDOW_SECONDS, tooManyRequests } from '../domain/rate-limit.ts';
import { authorizationToken } from '../http/authorization.ts';

/**
 * Whom an Open API call acts for: the bearer token's user, when the token is live, has the
 * operation's scope, and the user's plan has the API. Each call counts against the token's rate
 * limit (the plan's requests a minute), and every answer says where the window stands (`RateLimit-*`, `Retry-After` on 429).
 */
export async function apiCaller(
  em: EntityManager,
  deps: AppDeps,
  req: Request,
  res: Response,
  scope: ApiScope,
): Promise<User> {
  const plain = authorizationToken(req, ['Bearer']);
  const found = plain ? await authenticateApiToken(em, plain) : null;
  if (!found) {
    res.setHeader('WWW-Authenticate', 'Bearer');
    throw new AppError('UNAUTHORIZED', 'errors.apiTokenInvalid');
  }
  res.locals.language = found.user.language;
  const limit = {
    key: `openapi:token:${found.token.id}`,
    max: quotaOf(deps.config, found.user, 'apiRequestsPerMinute'),
    windowSeconds: OPEN_API_WINDOW_SECONDS,
  };
  const [hit] = await countHits(deps.redis, deps.config.redisPrefix, [limit]);
  const { count, resetSeconds } = hit as NonNullable<typeof hit>;
  res.setHeader('RateLimit-Policy', `${limit.max};w=${limit.windowSeconds}`);
  res.setHeader('RateLimit-Limit', String(limit.max));
  res.setHeader('RateLimit-Remaining', String(Math.max(limit.max - count, 0)));
  res.setHeader('RateLimit-Reset', String(resetSeconds));
  if (count > limit.max) {
    res.setHeader('Retry-After', String(resetSeconds));
    throw tooManyRequests(resetSeconds);
  }
  if (!found.token.scopes.includes(scope))
    throw new AppError('FORBIDDEN', 'errors.apiScopeMissing', { scope });
  // GETs (and HEADs, which Express answers with them) read what the user has: a lapsed member
  // keeps that; writing needs a live membership.
  const access = req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'use';
  requireFeature(deps.config, found.user, scope === 'daily' ? 'dailyApi' : 'openApi', access);
  return found.user;
}
