import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { AppDeps } from '../deps.ts';
import type { User } from '../domain/account/user.ts';
import { type ClientInfo, findSignedIn, type SignedIn } from '../domain/auth/session.service.ts';
import { requestLanguage } from '../i18n.ts';
import { type SessionCookies, sessionCookies, sessionToken } from '../web/session-cookie.ts';

export interface Context extends AppDeps {
  req: Request | undefined;
  res: Response | undefined;
  user: User | null;
  session: SignedIn['session'] | null;
  client: ClientInfo & { language: string | null };
  cookies: SessionCookies;
  /** Set by tests and jobs that want their own EntityManager; otherwise forked per procedure. */
  em?: EntityManager;
}

/**
 * Made once per request: the note list's JSON-text front (json-text-answers.ts) signs the caller
 * in, and tRPC, which answers what that front passes on, reuses it.
 */
const contexts = new WeakMap<Request, Promise<Context>>();

/** A request's context: who its session cookie signs in, and where the request comes from. */
export function requestContext(deps: AppDeps, req: Request, res: Response): Promise<Context> {
  let context = contexts.get(req);
  if (!context) {
    context = signInRequest(deps, req, res);
    contexts.set(req, context);
  }
  return context;
}

async function signInRequest(deps: AppDeps, req: Request, res: Response): Promise<Context> {
  const signedIn = await findSignedIn(deps.orm.em.fork(), sessionToken(req));
  return {
    ...deps,
    req,
    res,
    user: signedIn?.user ?? null,
    session: signedIn?.session ?? null,
    client: {
      ip: req.ip ?? null,
      userAgent: req.get('user-agent') ?? null,
      language: requestLanguage(req, signedIn?.user.language),
    },
    cookies: sessionCookies(req, res, deps.config),
  };
}
