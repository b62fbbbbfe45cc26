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
import type { AppDeps } from '../deps.ts';
import type { User } from '../domain/account/user.ts';
import { quotaOf, requireFeature } from '../domain/membership/gate.ts';
import { authenticateApiToken } from '../domain/openapi/api-tokens.ts';
import { countHits, OPEN_API_WINDOW_SECONDS, tooManyRequests } from '../domain/rate-limit.ts';
import { authenticateSyncToken } from '../domain/sync/tokens.ts';
import { authorizationToken } from '../web/authorization.ts';
import type { Operation } from './operation.ts';

/**
 * A kind of bearer token: the plan feature a call of each operation uses with it, refusing the
 * operations the kind does not reach. Every kind is then checked alike: the operation's scope
 * among the token's, the feature in the user's plan.
 */
interface TokenKind {
  featureOf(op: Operation): Feature;
}

/** API tokens (Settings → API and daily note) reach every operation: the Open API, or its daily notes. */
const API_TOKEN: TokenKind = {
  featureOf: (op) => (op.scope === 'daily' ? 'dailyApi' : 'openApi'),
};

/**
 * The browser extension's token (from the device flow) reaches only what the extension calls,
 * saving pages and highlighting them (what every plan has), whatever client the request claims
 * to be in the extension header.
 */
const EXTENSION_TOKEN: TokenKind = {
  featureOf: (op) => {
    if (!op.extension) throw new AppError('FORBIDDEN', 'errors.extensionTokenOutOfReach');
    return op.extension;
  },
};

/** A live token: whose, of which kind, with which scopes. */
interface Bearer {
  user: User;
  kind: TokenKind;
  /** Names its rate-limit window. */
  limitKey: string;
  scopes: readonly ApiScope[];
}

/** The extension's token has the read and write scopes of the operations it reaches. */
const EXTENSION_SCOPES: readonly ApiScope[] = ['read', 'write'];

async function bearerOf(em: EntityManager, req: Request, deps: AppDeps): Promise<Bearer | null> {
  const plain = authorizationToken(req, ['Bearer']);
  if (!plain) return null;
  const api = await authenticateApiToken(em, plain);
  if (api) {
    return {
      user: api.user,
      kind: API_TOKEN,
      limitKey: `openapi:token:${api.token.id}`,
      scopes: api.token.scopes,
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
    kind: EXTENSION_TOKEN,
    limitKey: `openapi:extension:${sync.token.id}`,
    scopes: EXTENSION_SCOPES,
  };
}

/**
 * Whom an Open API call acts for: the bearer token's user, when the token is live, reaches the
 * operation with its scope, and the user's plan has the feature the call uses. Each call counts
 * against the token's rate limit (the plan's requests a minute), and every answer says where the
 * window stands (`RateLimit-*`, `Retry-After` on 429). Only headers are read: the body waits until
 * the caller is known.
 */
export async function apiCaller(
  em: EntityManager,
  deps: AppDeps,
  req: Request,
  res: Response,
  op: Operation,
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
  const feature = found.kind.featureOf(op);
  if (!found.scopes.includes(op.scope))
    throw new AppError('FORBIDDEN', 'errors.apiScopeMissing', { scope: op.scope });
  // GETs (and HEADs, which Express answers with them) read what the user has: a lapsed member
  // keeps that; writing needs a live membership.
  const access = req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'use';
  requireFeature(deps.config, found.user, feature, access);
  return found.user;
}
