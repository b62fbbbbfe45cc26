import { parse as parseCookies } from 'cookie';
import type { Request, Response } from 'express';
import { LOGIN_COOKIE_KEY } from '../../src/constants.ts';
import type { AppConfig } from '../config.ts';
import type { NewSession } from '../domain/auth/session.service.ts';

/** Writes the `logininfo` session cookie on the HTTP response (a no-op for direct callers). */
export interface SessionCookies {
  set(session: NewSession): void;
  clear(): void;
}

/**
 * Whether cookies must be Secure: the request came over HTTPS, or users reach us at an https
 * PUBLIC_URL (a TLS proxy in front that TRUST_PROXY does not name still ends in HTTPS).
 */
export function secureCookies(req: Request, config: Pick<AppConfig, 'publicUrl'>): boolean {
  return req.secure || Boolean(config.publicUrl?.startsWith('https:'));
}

/** The session token the request's login cookie carries, if any. */
export function sessionToken(req: Request): string | undefined {
  return parseCookies(req.headers.cookie ?? '')[LOGIN_COOKIE_KEY];
}

/** HttpOnly, SameSite=Lax, Secure behind HTTPS; expiry from the session (one day, or thirty). */
export function sessionCookies(
  req: Request,
  res: Response,
  config: Pick<AppConfig, 'publicUrl'>,
): SessionCookies {
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: secureCookies(req, config), path: '/' };
  return {
    set: (session) => res.cookie(LOGIN_COOKIE_KEY, session.token, { ...base, maxAge: session.maxAgeMs }),
    clear: () => res.clearCookie(LOGIN_COOKIE_KEY, base),
  };
}
