import type { EntityManager } from '@mikro-orm/postgresql';
import { Session, type User } from '../../db/entities/index.ts';
import { hashToken } from './session-token.ts';

/** Refresh `lastSeenAt` at most this often, so reads don't turn every request into a write. */
const TOUCH_INTERVAL_MS = 5 * 60_000;

export interface SignedIn {
  user: User;
  session: Session;
}

/** The user behind a session cookie, or null when the token is unknown, revoked or expired. */
export async function findSignedIn(em: EntityManager, token: string | undefined): Promise<SignedIn | null> {
  if (!token || token.length > 128) return null;
  const session = await em.findOne(
    Session,
    { tokenHash: hashToken(token), expiresAt: { $gt: new Date() } },
    { populate: ['user'] },
  );
  if (!session) return null;
  if (Date.now() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await em.nativeUpdate(Session, { tokenHash: session.tokenHash }, { lastSeenAt: new Date() });
  }
  return { user: session.user as User, session };
}
