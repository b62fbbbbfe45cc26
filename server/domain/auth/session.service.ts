import type { EntityManager } from '@mikro-orm/postgresql';
import { DAY_MS } from '../../../src/constants.ts';
import { clock } from '../../clock.ts';
import { Session, type User } from '../../db/entities/index.ts';
import { hashToken, newToken } from './session-token.ts';

/** Refresh `lastSeenAt` at most this often, so reads don't turn every request into a write. */
const TOUCH_INTERVAL_MS = 5 * 60_000;
/** Spec: the login cookie lasts one day; "remember me" keeps it for thirty. */
const SESSION_TTL_MS = DAY_MS;
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
  const maxAgeMs = rememberMe ? REMEMBERED_SESSION_TTL_MS : SESSION_TTL_MS;
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

/** The user behind a session cookie, or null when the token is unknown, revoked or expired. */
export async function findSignedIn(em: EntityManager, token: string | undefined): Promise<SignedIn | null> {
  if (!token || token.length > 128) return null;
  const session = await em.findOne(
    Session,
    { tokenHash: hashToken(token), expiresAt: { $gt: clock.now() } },
    { populate: ['user'] },
  );
  if (!session) return null;
  if (clock.now().getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await em.nativeUpdate(Session, { tokenHash: session.tokenHash }, { lastSeenAt: clock.now() });
  }
  return { user: session.user as User, session };
}

export async function revokeSession(em: EntityManager, session: Session): Promise<void> {
  await em.nativeDelete(Session, { tokenHash: session.tokenHash });
}

/** Revokes every session of the user, or every one but `keep`. Returns how many went. */
export async function revokeSessions(em: EntityManager, user: User, keep?: Session): Promise<number> {
  return em.nativeDelete(Session, { user, ...(keep ? { tokenHash: { $ne: keep.tokenHash } } : {}) });
}
