import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import { CODE_COOLDOWN_SECONDS, type Me, type SendCodeResult } from '../../../src/schemas/auth.ts';
import { clock } from '../../clock.ts';
import { AuthBinding, type Session, User } from '../../db/entities/index.ts';
import { enqueue, type Queues, removeJobsAbout } from '../../queue.ts';
import {
  type CheckedCode,
  type CodeDeps,
  checkCode,
  consumeCode,
  deleteCodesOf,
  issueCode,
} from '../auth/codes.service.ts';
import { toMe } from '../auth/me.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { revokeSessions } from '../auth/session.service.ts';
import type { LimitStore } from '../rate-limit.ts';

export async function updateProfile(em: EntityManager, user: User, input: { nickname: string }): Promise<Me> {
  const fresh = await em.findOneOrFail(User, { id: user.id });
  fresh.nickname = input.nickname;
  await em.flush();
  return toMe(fresh);
}

/** Who a code goes to and in which language: the account's own, else the browser's. */
interface CodeClient {
  ip: string | null;
  language: string | null;
}

const sentCode: SendCodeResult = { cooldownSeconds: CODE_COOLDOWN_SECONDS };

/**
 * Mails a code to bind an email. An email another account uses gets the same answer (and
 * counts against the limits) but no mail, so nobody learns which emails have accounts.
 */
export async function sendBindCode(
  em: EntityManager,
  deps: CodeDeps,
  user: User,
  email: string,
  client: CodeClient,
): Promise<SendCodeResult> {
  const taken = await em.count(User, { email, id: { $ne: user.id } });
  await issueCode(em, deps, {
    email,
    purpose: 'bind',
    user,
    ip: client.ip,
    language: user.language ?? client.language,
    deliver: taken === 0,
  });
  return sentCode;
}

/** For accounts without a password: the code that confirms deletion, to the account's email. */
export async function sendDeleteCode(
  em: EntityManager,
  deps: CodeDeps,
  user: User,
  client: CodeClient,
): Promise<SendCodeResult> {
  if (!user.email) throw new AppError('BAD_REQUEST', 'errors.emailEmpty');
  await issueCode(em, deps, {
    email: user.email,
    purpose: 'delete',
    user,
    ip: client.ip,
    language: user.language ?? client.language,
  });
  return sentCode;
}

/** Daily notes follow the user's calendar day; the client reports its time zone. */
export async function updateTimeZone(em: EntityManager, user: User, timeZone: string): Promise<void> {
  await em.nativeUpdate(User, { id: user.id }, { timeZone });
}

export async function updateLanguage(em: EntityManager, user: User, language: string): Promise<void> {
  await em.nativeUpdate(User, { id: user.id }, { language });
}

/** Needs the current password; every other session is signed out. */
export async function changePassword(
  em: EntityManager,
  user: User,
  session: Session,
  input: { oldPassword?: string | undefined; password: string },
): Promise<void> {
  const fresh = await em.findOneOrFail(User, { id: user.id });
  if (fresh.passwordHash && !(await verifyPassword(fresh.passwordHash, input.oldPassword ?? ''))) {
    throw new AppError('BAD_REQUEST', 'errors.passwordWrong');
  }
  fresh.passwordHash = await hashPassword(input.password);
  await em.transactional(async (tem) => {
    await tem.flush();
    await revokeSessions(tem, fresh, session);
  });
}

export async function bindEmail(
  em: EntityManager,
  deps: LimitStore,
  user: User,
  input: { email: string; code: string },
  client: { ip: string | null },
): Promise<Me> {
  const code = await checkCode(em, deps, {
    email: input.email,
    purpose: 'bind',
    code: input.code,
    user,
    ip: client.ip,
  });
  return em.transactional(async (tem) => {
    await consumeCode(tem, code);
    const taken = await tem.count(User, { email: input.email, id: { $ne: user.id } });
    if (taken) throw new AppError('CONFLICT', 'errors.emailTaken');
    const fresh = await tem.findOneOrFail(User, { id: user.id });
    fresh.email = input.email;
    await tem.flush();
    return toMe(fresh);
  });
}

/** Ways left to sign in besides the one being removed. */
async function otherLoginMethods(em: EntityManager, user: User, removing: 'email' | string): Promise<number> {
  const fresh = await em.findOneOrFail(User, { id: user.id });
  const bindings = await em.find(AuthBinding, { user: fresh });
  const email = fresh.email && fresh.passwordHash && removing !== 'email' ? 1 : 0;
  return email + bindings.filter((b) => b.provider !== removing).length;
}

export async function unbindEmail(em: EntityManager, user: User): Promise<void> {
  if ((await otherLoginMethods(em, user, 'email')) === 0)
    throw new AppError('BAD_REQUEST', 'errors.lastLoginMethod');
  await em.nativeUpdate(User, { id: user.id }, { email: null });
}

export async function listBindings(em: EntityManager, user: User) {
  const fresh = await em.findOneOrFail(User, { id: user.id });
  const bindings = await em.find(AuthBinding, { user: fresh }, { orderBy: { id: 'asc' } });
  return {
    email: fresh.email ?? null,
    providers: bindings.map((b) => ({
      provider: b.provider as 'google',
      email: b.email ?? null,
      createdAt: b.createdAt,
    })),
  };
}

export async function unbindProvider(em: EntityManager, user: User, provider: string): Promise<void> {
  if ((await otherLoginMethods(em, user, provider)) === 0)
    throw new AppError('BAD_REQUEST', 'errors.lastLoginMethod');
  await em.nativeDelete(AuthBinding, { user: user.id, provider });
}

/** How recent a sign-in must be to delete an account that has neither password nor email. */
const FRESH_SIGN_IN_MS = 15 * 60_000;

/**
 * Irreversible. Re-authenticates (password, or an emailed code when the account has none),
 * then removes the user and every row they own in one transaction (rows cascade from `user`,
 * codes sent to its email go with it); stored files are removed afterwards by a job, and every
 * job about the account or its codes (mails, pushes, purges) is removed from Redis.
 */
export async function deleteAccount(
  em: EntityManager,
  deps: LimitStore & { queues: Queues },
  user: User,
  session: Session,
  input: { password?: string | undefined; code?: string | undefined },
  client: { ip: string | null },
): Promise<void> {
  const fresh = await em.findOneOrFail(User, { id: user.id });
  let code: CheckedCode | undefined;
  if (fresh.passwordHash) {
    if (!(await verifyPassword(fresh.passwordHash, input.password ?? ''))) {
      throw new AppError('BAD_REQUEST', 'errors.passwordWrong');
    }
  } else if (fresh.email) {
    if (!input.code) throw new AppError('BAD_REQUEST', 'errors.codeInvalid');
    code = await checkCode(em, deps, {
      email: fresh.email,
      purpose: 'delete',
      code: input.code,
      user: fresh,
      ip: client.ip,
    });
  } else if (clock.now().getTime() - session.createdAt.getTime() > FRESH_SIGN_IN_MS) {
    // No password and no email (a third-party sign-in only): a recent sign-in is the proof.
    throw new AppError('UNAUTHORIZED', 'errors.signInAgain');
  }
  const codeIds = await em.transactional(async (tem) => {
    if (code) await consumeCode(tem, code);
    const deleted = await deleteCodesOf(tem, fresh);
    await tem.nativeDelete(User, { id: fresh.id });
    return deleted;
  });
  await enqueue(deps.queues, 'deleteUserFiles', { userId: fresh.id });
  await removeJobsAbout(deps.queues, { userId: fresh.id, codeIds });
}
