import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { Session, User } from '../db/entities/index.ts';
import type { AppDeps } from '../deps.ts';
import type { ClientInfo, NewSession } from '../domain/auth/session.service.ts';

/** Writes the `logininfo` session cookie on the HTTP response (a no-op for direct callers). */
export interface SessionCookies {
  set(session: NewSession): void;
  clear(): void;
}

export interface Context extends AppDeps {
  req: Request | undefined;
  res: Response | undefined;
  user: User | null;
  session: Session | null;
  client: ClientInfo & { language: string | null };
  cookies: SessionCookies;
  /** Set by tests and jobs that want their own EntityManager; otherwise forked per procedure. */
  em?: EntityManager;
}
