import type { Request } from 'express';
import type { AppDeps } from '../deps.ts';
import type { User } from '../domain/account/user.ts';
import { findSignedIn } from '../domain/auth/session.service.ts';
import { sessionToken } from '../web/session-cookie.ts';

/** The user the request's login cookie signs in, for plain Express routes (tRPC has its context). */
export async function signedInUser(deps: AppDeps, req: Request): Promise<User | null> {
  return (await findSignedIn(deps.orm.em.fork(), sessionToken(req)))?.user ?? null;
}
