import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ApiScope } from '../../src/schemas/api-tokens.ts';
import type { Feature } from '../../src/schemas/membership.ts';
import type { AppDeps } from '../deps.ts';
import type { User } from '../domain/account/user.ts';
import type { ChangeDeps } from '../domain/changes.ts';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/**
 * A body's cap unless its operation declares one. The largest ordinary body is a highlight whose
 * text, selector quote, `quote` and annotation are 20,000 CJK characters each: 240 KB as JSON.
 */
export const OPERATION_BODY_MAX = 256 * 1024;

/**
 * Everything an operation's handler is given: the parsed request and whom it acts for. It is a
 * service's ChangeDeps, so a handler passes it on to the service it calls.
 */
export interface OperationCall<P, Q, B> extends ChangeDeps {
  em: EntityManager;
  user: User;
  deps: AppDeps;
  /** Margin's public origin, for links in answers. */
  origin: string;
  params: P;
  query: Q;
  body: B;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * One Open API operation: its route, the scope a token needs, the zod schemas of its path,
 * query, body and answer (the document is generated from them, and requests are parsed with
 * them), and a handler that calls the domain services the tRPC routers call.
 */
export interface Operation<
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** OpenAPI style, under /openapi/v1: `/notes/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  scope: ApiScope;
  /**
   * The browser extension calls it (extension/background.ts), as this part of every plan: its
   * token reaches only the operations that say so. API tokens reach every operation.
   */
  extension?: Extract<Feature, 'clip' | 'highlights'>;
  params?: P;
  query?: Q;
  body?: B;
  /** The most its body may weigh, in bytes (OPERATION_BODY_MAX unless said); read only once the token is checked. */
  bodyMax?: number;
  response: R;
  /** 201 for a create; 200 otherwise. */
  status?: 200 | 201;
  /**
   * Refusals the document would not list by itself (it gives 404 to operations with a path id and
   * 409 to POSTs, for a running Idempotency-Key), each with why this operation answers it: an id
   * in its body or query that is not the caller's, a name already taken.
   */
  refuses?: Partial<Record<'404' | '409', string>>;
  handle(call: OperationCall<Parsed<P>, Parsed<Q>, Parsed<B>>): Promise<z.input<R>>;
}

/** Keeps each operation's types while collecting them in one list. */
export function operation<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(op: Operation<P, Q, B, R>): Operation {
  return op as unknown as Operation;
}
