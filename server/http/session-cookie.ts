import type { Request, Response } from 'express';
import { LOGIN_COOKIE_KEY } from '../../src/constants.ts';
import type { SessionCookies } from '../trpc/context.ts';

/** HttpOnly, SameSite=Lax, Secure behind HTTPS; expiry from the session (one day, or thirty). */
export function sessionCookies(req: Request, res: Response): SessionCookies {
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: req.secure, path: '/' };
  return {
    set: (session) => res.cookie(LOGIN_COOKIE_KEY, session.token, { ...base, maxAge: session.maxAgeMs }),
    clear: () => res.clearCookie(LOGIN_COOKIE_KEY, base),
  };
}

export const noCookies: SessionCookies = { set() {}, clear() {} };
