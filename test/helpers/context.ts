import type { Session, User } from '../../server/db/entities/index.ts';
import type { AppDeps } from '../../server/deps.ts';
import type { NewSession } from '../../server/domain/auth/session.service.ts';
import { appRouter } from '../../server/trpc/app.router.ts';
import type { Context } from '../../server/trpc/context.ts';
import { createCallerFactory } from '../../server/trpc/init.ts';

/** What a procedure asked the HTTP layer to do with the session cookie. */
export interface CookieJar {
  session: NewSession | null;
  cleared: boolean;
}

export function contextFor(
  deps: AppDeps,
  signedIn: { user: User; session: Session } | null = null,
  client: Partial<Context['client']> = {},
): Context & { jar: CookieJar } {
  const jar: CookieJar = { session: null, cleared: false };
  return {
    ...deps,
    req: undefined,
    res: undefined,
    user: signedIn?.user ?? null,
    session: signedIn?.session ?? null,
    client: { ip: '203.0.113.7', userAgent: 'vitest', language: 'en', ...client },
    cookies: {
      set: (session) => {
        jar.session = session;
      },
      clear: () => {
        jar.cleared = true;
      },
    },
    jar,
  };
}

const createCaller = createCallerFactory(appRouter);
type Caller = ReturnType<typeof createCaller>;
const jars = new WeakMap<Caller, CookieJar>();

export function callerFor(
  deps: AppDeps,
  signedIn: { user: User; session: Session } | null = null,
  client: Partial<Context['client']> = {},
): Caller {
  const ctx = contextFor(deps, signedIn, client);
  const caller = createCaller(ctx);
  jars.set(caller, ctx.jar);
  return caller;
}

/** The cookie a caller's procedures set or cleared (a tRPC caller is a proxy: no own fields). */
export function jarOf(caller: Caller): CookieJar {
  const jar = jars.get(caller);
  if (!jar) throw new Error('not a caller from callerFor');
  return jar;
}
