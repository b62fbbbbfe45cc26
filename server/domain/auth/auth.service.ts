import { randomInt } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LoginType } from '../../../src/enums.ts';
import { AppError } from '../../../src/errors.ts';
import { regionConfig } from '../../../src/regions.ts';
import {
  CODE_COOLDOWN_SECONDS,
  type LoginInput,
  type Providers,
  type RegisterInput,
  type ResetPasswordInput,
  type SendCodeInput,
  type SendCodeResult,
} from '../../../src/schemas/auth.ts';
import { clock } from '../../clock.ts';
import type { AppConfig } from '../../config.ts';
import { User } from '../../db/entities/index.ts';
import { claimTry, clearTries, enforceLimits, LIMITS, type LimitStore } from '../rate-limit.ts';
import { type CodeDeps, checkCode, consumeCode, issueCode } from './codes.service.ts';
import { emailKey } from './email-key.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { type ClientInfo, createSession, type NewSession, revokeSessions } from './session.service.ts';

const ACCOUNT_ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newAccountId(): string {
  let id = 'M';
  for (let i = 0; i < 9; i++) id += ACCOUNT_ID_ALPHABET[randomInt(ACCOUNT_ID_ALPHABET.length)];
  return id;
}

/** New accounts start anonymous, as the spec's "nick" + digits. */
function anonymousNickname(): string {
  return `nick${randomInt(100_000, 1_000_000)}`;
}

export function newUser(
  em: EntityManager,
  fields: { email: string | null; passwordHash: string | null; language: string | null },
): User {
  return em.create(User, {
    email: fields.email,
    passwordHash: fields.passwordHash,
    language: fields.language,
    nickname: anonymousNickname(),
    accountId: newAccountId(),
  });
}

/** Login types allowed in this region and configured on this install, primary first. */
export function loginProviders(config: Pick<AppConfig, 'region' | 'oidc'>): Providers {
  const allowed = regionConfig(config.region).loginTypes;
  const configured = allowed.filter(
    (type) => type === LoginType.email || (type === LoginType.google && config.oidc),
  );
  return { loginTypes: configured, oidcName: config.oidc ? 'Google' : null };
}

/**
 * Mails a code to register or to reset a password. Same answer whether or not the email has an
 * account: a reset for an unknown email counts against the limits but mails nothing.
 */
export async function sendCode(
  em: EntityManager,
  deps: CodeDeps,
  input: SendCodeInput,
  client: Pick<ClientInfo, 'ip'> & { language: string | null },
): Promise<SendCodeResult> {
  const exists = input.purpose === 'reset' ? (await em.count(User, { email: input.email })) > 0 : true;
  await issueCode(em, deps, {
    email: input.email,
    purpose: input.purpose,
    ip: client.ip,
    language: client.language,
    deliver: exists,
  });
  return { cooldownSeconds: CODE_COOLDOWN_SECONDS };
}

export interface SignedInResult {
  user: User;
  session: NewSession;
}

export async function register(
  em: EntityManager,
  deps: LimitStore,
  input: RegisterInput,
  client: ClientInfo & { language: string | null },
): Promise<SignedInResult> {
  const code = await checkCode(em, deps, {
    email: input.email,
    purpose: 'register',
    code: input.code,
    ip: client.ip,
  });
  const passwordHash = await hashPassword(input.password);
  return em.transactional(async (tem) => {
    await consumeCode(tem, code);
    if (await tem.count(User, { email: input.email })) throw new AppError('CONFLICT', 'errors.emailTaken');
    const user = newUser(tem, { email: input.email, passwordHash, language: client.language });
    await tem.flush();
    return { user, session: await createSession(tem, user, client) };
  });
}

/**
 * Email and password. Every failure is the same "Login Failed" and takes the same time, so
 * nobody learns whether an email has an account. Attempts are limited per address, and each
 * (email, address) pair backs off after a few tries (LIMITS.login): a stranger guessing from
 * elsewhere slows only themselves, never the owner. Tries are claimed before the password is
 * checked, so parallel guesses get no more. A success clears its pair.
 */
export async function login(
  em: EntityManager,
  deps: LimitStore,
  input: LoginInput,
  client: ClientInfo,
): Promise<SignedInResult> {
  if (client.ip) {
    await enforceLimits(deps.redis, deps.redisPrefix, [
      { key: `login:ip:${client.ip}`, ...LIMITS.login.perIp },
    ]);
  }
  const pairKey = `login:${emailKey(input.email)}:${client.ip ?? 'unknown'}`;
  await claimTry(deps.redis, deps.redisPrefix, pairKey, LIMITS.login.backoff, clock.now().getTime());
  const user = await em.findOne(User, { email: input.email });
  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !ok) throw new AppError('UNAUTHORIZED', 'toast.loginFailed');
  await clearTries(deps.redis, deps.redisPrefix, pairKey);
  return { user, session: await createSession(em, user, client, input.rememberMe) };
}

/** Sets a new password with an emailed code and signs out every session. */
export async function resetPassword(
  em: EntityManager,
  deps: LimitStore,
  input: ResetPasswordInput,
  client: Pick<ClientInfo, 'ip'>,
): Promise<void> {
  const code = await checkCode(em, deps, {
    email: input.email,
    purpose: 'reset',
    code: input.code,
    ip: client.ip,
  });
  const passwordHash = await hashPassword(input.password);
  await em.transactional(async (tem) => {
    await consumeCode(tem, code);
    const user = await tem.findOne(User, { email: input.email });
    if (!user) throw new AppError('BAD_REQUEST', 'errors.codeInvalid');
    user.passwordHash = passwordHash;
    await tem.flush();
    await revokeSessions(tem, user);
  });
}
