import { randomBytes } from 'node:crypto';
import type { User } from '../../server/db/entities/index.ts';
import type { AppDeps } from '../../server/deps.ts';
import { newUser } from '../../server/domain/auth/auth.service.ts';
import { hashPassword } from '../../server/domain/auth/password.ts';
import { createSession, findSignedIn } from '../../server/domain/auth/session.service.ts';
import { callerFor } from './context.ts';

/**
 * A user with a live session, made straight in the database (sign-up has its own tests), in
 * `timeZone` (the account's zone decides which day "today" is). Unless `language` is given the
 * account has chosen none, so a browser signed in as it reads in the browser's language.
 */
export async function signedInUser(
  deps: AppDeps,
  email = `u-${randomBytes(4).toString('hex')}@example.test`,
  timeZone = 'UTC',
  language: string | null = null,
) {
  const em = deps.orm.em.fork();
  const user = newUser(em, { email, passwordHash: null, language });
  user.timeZone = timeZone;
  await em.flush();
  const { token } = await createSession(em, user, { ip: '127.0.0.1', userAgent: 'test' });
  const signedIn = await findSignedIn(deps.orm.em.fork(), token);
  if (!signedIn) throw new Error('session not found');
  return { ...signedIn, token, caller: callerFor(deps, signedIn) };
}

/**
 * A user who signs in with `email` and `password`, made straight in the database (no session),
 * of no chosen language unless `language` is given.
 */
export async function userWithPassword(
  deps: AppDeps,
  email: string,
  password: string,
  language: string | null = null,
): Promise<User> {
  const em = deps.orm.em.fork();
  const user = newUser(em, { email, passwordHash: await hashPassword(password), language });
  await em.flush();
  return user;
}
