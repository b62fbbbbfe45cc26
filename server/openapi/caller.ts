import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { AppError } from '../../src/errors.ts';
import type { ApiScope } from '../../src/schemas/api-tokens.ts';
import {
  EXTENSION_CLIENT_HEADER,
  isVersionTooLow,
  parseExtensionClient,
} from '../../src/schemas/extension.ts';
import type { Feature } from '../../src/schemas/membership.ts';
import type { User } from '../db/entities/index.ts';
import type { AppDeps } from '../deps.ts';
import { quotaOf, requireFeature } from '../domain/membership/gate.ts';
import { authenticateApiToken } from '../domain/openapi/api-tokens.ts';
import { countHits, OPEN_API_WINDOW_SECONDS, tooManyRequests } from '../domain/rate-limit.ts';
import { authenticateSyncToken } from '../domain/sync/tokens.ts';
import { authorizationToken } from '../http/authorization.ts';

/** A live token and what it may do. */
interface Bearer {
  user: User;
  /** Names its rate-limit window. */
  limitKey: string;
  scopes: readonly ApiScope[];
  /** The plan feature a scope needs: the Open API's for API tokens; nothing more for the extension. */
  featureOf(scope: ApiScope): Feature | null;
}

/**
 * The browser extension's token (from the device flow) clips pages and highlights them: what every
 * plan has. It reads and writes notes and highlights, never the daily-note API.
 */
const EXTENSION_SCOPES: readonly ApiScope[] = ['read', 'write'];

async function bearerOf(em: EntityManager, req: Request, deps: AppDeps): Promise<Bearer | null> {
  const plain = authorizationToken(req, ['Bearer']);
  if (!plain) return null;
  const api = await authenticateApiToken(em, plain);
  if (api) {
    return {
      user: api.user,
      limitKey: `openapi:token:${api.token.id}`,
      scopes: api.token.scopes,
      featureOf: (scope) => (scope === 'daily' ? 'dailyApi' : 'openApi'),
    };
  }
  const client = req.get(EXTENSION_CLIENT_HEADER);
  const sync = await authenticateSyncToken(em, plain, client?.slice(0, 64) ?? null);
  if (sync?.token.app !== 'extension') return null;
  const extension = parseExtensionClient(client);
  const minimum = deps.config.extensionMinVersion;
  if (!extension || isVersionTooLow(extension.version, minimum)) {
    throw new AppError('FORBIDDEN', 'errors.pluginTooLow', {
      current: extension?.version ?? '?',
      required: minimum,
    });
  }
  return {
    user: sync.user,
    limitKey: `openapi:extension:${sync.token.id}`,
    scopes: EXTENSION_SCOPES,
    featureOf: () => null,
  };
}

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
  const found = await bearerOf(em, req, deps);
  if (!found) {
    res.setHeader('WWW-Authenticate', 'Bearer');
    throw new AppError('UNAUTHORIZED', 'errors.apiTokenInvalid');
  }
  res.locals.language = found.user.language;
  const limit = {
    key: found.limitKey,
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
  if (!found.scopes.includes(scope)) throw new AppError('FORBIDDEN', 'errors.apiScopeMissing', { scope });
  const feature = found.featureOf(scope);
  // GETs (and HEADs, which Express answers with them) read what the user has: a lapsed member
  // keeps that; writing needs a live membership.
  const access = req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'use';
  if (feature) requireFeature(deps.config, found.user, feature, access);
  return found.user;
}
