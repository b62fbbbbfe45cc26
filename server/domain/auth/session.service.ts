import type { EntityManager } from '@mikro-orm/postgresql';
import { DAY_MS, LOGIN_COOKIE_MAX_AGE_MS } from '../../../src/constants.ts';
import { clock } from '../../clock.ts';
import { Session, User } from '../../db/entities/index.ts';
import { preparedRows } from '../../db/prepared.ts';
import { hashToken, newToken } from './session-token.ts';

/** Refresh `lastSeenAt` at most this often, so reads don't turn every request into a write. */
const TOUCH_INTERVAL_MS = 5 * 60_000;
/** The login cookie lasts one day (LOGIN_COOKIE_MAX_AGE_MS); "remember me" keeps it for thirty. */
const REMEMBERED_SESSION_TTL_MS = 30 * DAY_MS;

export interface SignedIn {
  user: User;
  session: Session;
}

export interface ClientInfo {
  userAgent: string | null;
  ip: string | null;
}

export interface NewSession {
  token: string;
  maxAgeMs: number;
}

export async function createSession(
  em: EntityManager,
  user: User,
  client: ClientInfo,
  rememberMe = false,
): Promise<NewSession> {
  const token = newToken();
  const maxAgeMs = rememberMe ? REMEMBERED_SESSION_TTL_MS : LOGIN_COOKIE_MAX_AGE_MS;
  em.create(Session, {
    tokenHash: hashToken(token),
    user,
    expiresAt: new Date(clock.now().getTime() + maxAgeMs),
    userAgent: client.userAgent?.slice(0, 512) ?? null,
    ip: client.ip?.slice(0, 64) ?? null,
    rememberMe,
  });
  await em.flush();
  return { token, maxAgeMs };
}

/**
 * A session and its user in one statement (every authenticated request starts here): the
 * session's columns under `session_` names beside the user's own, both turned into entities
 * without a query builder.
 */
const SIGNED_IN_SQL = `select s.token_hash session_token_hash, s.created_at session_created_at,
    s.expires_at session_expires_at, s.last_seen_at session_last_seen_at,
    s.user_agent session_user_agent, s.ip session_ip, s.remember_me session_remember_me, u.*
  from session s join "user" u on u.id = s.user_id
  where s.token_hash = ? and s.expires_at > ?`;

const SESSION_PREFIX = 'session_';

/** The user behind a session cookie, or null when the token is unknown, revoked or expired. */
export async function findSignedIn(em: EntityManager, token: string | undefined): Promise<SignedIn | null> {
  if (!token || token.length > 128) return null;
  const [row] = await preparedRows(em, SIGNED_IN_SQL, [hashToken(token), clock.now()]);
  if (!row) return null;
  const userColumns: Record<string, unknown> = {};
  const sessionColumns: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (column.startsWith(SESSION_PREFIX)) sessionColumns[column.slice(SESSION_PREFIX.length)] = value;
    else userColumns[column] = value;
  }
  const user = em.map(User, userColumns);
  const session = em.map(Session, { ...sessionColumns, user_id: user.id });
  if (clock.now().getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await em.nativeUpdate(Session, { tokenHash: session.tokenHash }, { lastSeenAt: clock.now() });
  }
  return { user, session };
}

export async function revokeSession(em: EntityManager, session: Session): Promise<void> {
  await em.nativeDelete(Session, { tokenHash: session.tokenHash });
}

/** Revokes every session of the user, or every one but `keep`. Returns how many went. */
export async function revokeSessions(em: EntityManager, user: User, keep?: Session): Promise<number> {
  return em.nativeDelete(Session, { user, ...(keep ? { tokenHash: { $ne: keep.tokenHash } } : {}) });
}
