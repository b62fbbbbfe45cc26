import type { EntityManager } from '@mikro-orm/postgresql';
import { DAY_MS, MINUTE_MS } from '../../../src/constants.ts';
import { AppError } from '../../../src/errors.ts';
import {
  API_SCOPES,
  API_TOKEN_PREFIX,
  type ApiTokenView,
  type CreateApiTokenInput,
} from '../../../src/schemas/api-tokens.ts';
import { clock } from '../../clock.ts';
import { ApiToken, type User } from '../../db/entities/index.ts';
import { hashToken, newToken } from '../auth/session-token.ts';
import { type MembershipSettings, quotaOf, requireFeature } from '../membership/gate.ts';

/** Last-used times are written at most this often, so a busy script does not write on every call. */
const LAST_USED_EVERY_MS = MINUTE_MS;
/** Characters of the random part shown in the list (`mapi_ab12…`). */
const HINT_LENGTH = 4;
/** Longer than any token we make: anything longer is refused before it is hashed. */
const TOKEN_MAX_LENGTH = 128;

const isExpired = (token: ApiToken, now: Date) => token.expiresAt != null && token.expiresAt <= now;

function view(token: ApiToken, now = clock.now()): ApiTokenView {
  return {
    id: token.id,
    name: token.name,
    hint: token.tokenHint,
    scopes: API_SCOPES.filter((scope) => token.scopes.includes(scope)),
    createdAt: token.createdAt,
    expiresAt: token.expiresAt ?? null,
    expired: isExpired(token, now),
    lastUsedAt: token.lastUsedAt ?? null,
  };
}

/**
 * A new token; the plain token is returned once and only its hash is kept. An account holds at
 * most its plan's `apiTokens` live tokens: creates for one user take turns on the user's row,
 * so parallel ones cannot all pass the count.
 */
export async function createApiToken(
  em: EntityManager,
  membership: MembershipSettings,
  user: User,
  input: CreateApiTokenInput,
): Promise<{ token: string; view: ApiTokenView }> {
  // The token must be usable for every scope it is given: read and write are the Open API, daily the daily API.
  if (input.scopes.some((scope) => scope !== 'daily')) requireFeature(membership, user, 'openApi');
  if (input.scopes.includes('daily')) requireFeature(membership, user, 'dailyApi');
  const max = quotaOf(membership, user, 'apiTokens');
  return em.transactional(async (tx) => {
    const now = clock.now();
    await tx.execute('select 1 from "user" where "id" = ? for no key update', [user.id]);
    const live = await tx.count(ApiToken, {
      user: user.id,
      revokedAt: null,
      $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
    });
    if (live >= max) throw new AppError('CONFLICT', 'errors.apiTokenLimit', { max });
    const secret = newToken();
    const token = `${API_TOKEN_PREFIX}${secret}`;
    const entity = tx.create(ApiToken, {
      user,
      name: input.name,
      scopes: API_SCOPES.filter((scope) => input.scopes.includes(scope)),
      tokenHash: hashToken(token),
      tokenHint: `${API_TOKEN_PREFIX}${secret.slice(0, HINT_LENGTH)}`,
      createdAt: now,
      expiresAt: input.expiresInDays === null ? null : new Date(now.getTime() + input.expiresInDays * DAY_MS),
    });
    await tx.flush();
    return { token, view: view(entity, now) };
  });
}

/** The account's tokens, newest first; revoked ones are gone, expired ones listed as expired. */
export async function listApiTokens(em: EntityManager, user: User): Promise<ApiTokenView[]> {
  const tokens = await em.find(
    ApiToken,
    { user: user.id, revokedAt: null },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  const now = clock.now();
  return tokens.map((token) => view(token, now));
}

/** Revokes one of the user's tokens; any other id (another user's, already revoked) is NOT_FOUND. */
export async function revokeApiToken(em: EntityManager, user: User, input: { id: number }): Promise<void> {
  const revoked = await em.nativeUpdate(
    ApiToken,
    { id: input.id, user: user.id, revokedAt: null },
    { revokedAt: clock.now() },
  );
  if (!revoked) throw new AppError('NOT_FOUND', 'errors.apiTokenNotFound');
}

/**
 * The user a bearer token belongs to and the token (its scopes), or null for an unknown, revoked
 * or expired token. Notes when it was last used, at most once a minute.
 */
export async function authenticateApiToken(
  em: EntityManager,
  plainToken: string,
): Promise<{ user: User; token: ApiToken } | null> {
  if (!plainToken.startsWith(API_TOKEN_PREFIX) || plainToken.length > TOKEN_MAX_LENGTH) return null;
  const found = await em.findOne(
    ApiToken,
    { tokenHash: hashToken(plainToken), revokedAt: null },
    { populate: ['user'] },
  );
  const now = clock.now();
  if (!found || isExpired(found, now)) return null;
  if (!found.lastUsedAt || now.getTime() - found.lastUsedAt.getTime() >= LAST_USED_EVERY_MS) {
    found.lastUsedAt = now;
    await em.flush();
  }
  return { user: found.user, token: found };
}
