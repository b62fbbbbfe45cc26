import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../config.ts';
import type { Session, User } from '../db/entities/index.ts';
import type { Orm } from '../db/orm.ts';
import type { CodeDeps } from '../domain/auth/codes.service.ts';
import type { ClientInfo, NewSession } from '../domain/auth/session.service.ts';
import type { Queues } from '../queue.ts';

/** Long-lived things the app is built from; one set per process. */
export interface AppDeps {
  config: AppConfig;
  orm: Orm;
  redis: Redis;
  queues: Queues;
}

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

/** What mailing codes and the abuse limits need from a context. */
export function codeDeps(ctx: AppDeps): CodeDeps {
  return { redis: ctx.redis, redisPrefix: ctx.config.redisPrefix, queues: ctx.queues };
}
