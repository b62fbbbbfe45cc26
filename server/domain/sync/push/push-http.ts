import type { AppConfig } from '../../../config.ts';
import { type FetchRefusalReason, FetchRefusedError, guardedFetch } from '../../../net/guarded-fetch.ts';

/** What the push code needs from the operator's configuration. */
export interface PushEnv {
  /** FETCH_ALLOW_TARGETS: the private addresses (a SiYuan kernel on the intranet) that may be reached. */
  allowedTargets: readonly string[];
  flomoOrigin: string;
  workflowyOrigin: string;
}

export function pushEnv(config: AppConfig): PushEnv {
  return {
    allowedTargets: config.fetchAllowTargets,
    flomoOrigin: config.flomoApiOrigin,
    workflowyOrigin: config.workflowyApiOrigin,
  };
}

/** The note tool refuses the saved credentials (a revoked key, a deleted webhook): the integration is unbound. */
export class PushRefusedError extends Error {
  constructor(app: string, detail: string) {
    super(`${app} refused the credentials: ${detail}`);
    this.name = 'PushRefusedError';
  }
}

/** The note tool asks to be called again later (a rate limit): the job waits, it does not fail. */
export class PushRetryLaterError extends Error {
  readonly afterMs: number;
  constructor(app: string, afterMs: number) {
    super(`${app} asked to retry in ${afterMs} ms`);
    this.name = 'PushRetryLaterError';
    this.afterMs = afterMs;
  }
}

/**
 * The message keys a failed push run leaves on the settings page (integration.last_error, which
 * client/features/sync/sync-errors.ts translates).
 */
export const PUSH_ERRORS = {
  /** The tool refused the saved credentials; the integration was unbound. */
  keyRevoked: 'errors.pushKeyRevoked',
  /** Every attempt was answered with an error. */
  failed: 'errors.pushFailed',
  /** No attempt got an answer (no connection, no such host, a timeout). */
  unreachable: 'errors.pushUnreachable',
  /** The guarded fetcher may not reach the tool's address (FETCH_ALLOW_TARGETS). */
  addressRefused: 'errors.pushAddressRefused',
  /** The SiYuan kernel answered, but not in its `{code, msg, data}` envelope. */
  siyuanUnexpectedReply: 'errors.siyuanUnexpectedReply',
  /** The SiYuan kernel answered with `code != 0`. */
  siyuanKernelFailed: 'errors.siyuanKernelFailed',
} as const;
export type PushErrorKey = (typeof PUSH_ERRORS)[keyof typeof PUSH_ERRORS];

/** Any other failure of a call: retried with backoff; `reason` is what the last attempt's failure records. */
export class PushCallError extends Error {
  readonly reason: PushErrorKey;
  constructor(app: string, detail: string, options?: { cause?: unknown; reason?: PushErrorKey }) {
    super(`${app}: ${detail}`, options);
    this.name = 'PushCallError';
    this.reason = options?.reason ?? PUSH_ERRORS.failed;
  }
}

/**
 * The guarded fetcher refuses the tool's address (private, local or reserved, a blocked port):
 * the operator's setting, not a bad moment, so the job ends at once with the reason shown.
 */
export class PushAddressRefusedError extends PushCallError {
  constructor(app: string, detail: string, options?: { cause?: unknown }) {
    super(app, detail, { ...options, reason: PUSH_ERRORS.addressRefused });
    this.name = 'PushAddressRefusedError';
  }
}

/** Refusals of the address itself, which no retry changes. */
const ADDRESS_REFUSALS: ReadonlySet<FetchRefusalReason> = new Set([
  'invalid_url',
  'scheme',
  'blocked_port',
  'blocked_address',
]);
/** No answer at all. */
const NO_ANSWER: ReadonlySet<FetchRefusalReason> = new Set(['dns', 'connection', 'timeout']);

export interface ApiReply {
  status: number;
  /** The parsed JSON body; undefined when there is none or it is not JSON. */
  body: unknown;
}

/**
 * A 2xx: the tool did what it was asked, whether or not its body can be read. A create answered
 * so is never sent again as if it had not happened (that made the same node again on every retry).
 */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status <= 299;
}

const PUSH_USER_AGENT = 'Margin/1.0 (+https://github.com/margin)';
const API_LIMITS = { maxBytes: 2 * 1024 * 1024, timeoutMs: 20_000, idleTimeoutMs: 10_000 };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * One call to a note tool's API, through the guarded fetcher (a tool on a private address is
 * reached only when the operator allows it). Every status is answered, a success in a type
 * other than JSON or text too (without a body); a call that gets no answer throws PushCallError
 * (PushAddressRefusedError for an address the fetcher may not reach).
 */
export async function callApi(
  app: string,
  url: string,
  request: { method: 'GET' | 'POST' | 'DELETE'; headers?: Record<string, string>; json?: unknown },
  env: Pick<PushEnv, 'allowedTargets'>,
): Promise<ApiReply> {
  try {
    const response = await guardedFetch(url, {
      ...API_LIMITS,
      method: request.method,
      headers: {
        ...request.headers,
        ...(request.json !== undefined && { 'content-type': 'application/json' }),
      },
      ...(request.json !== undefined && { body: JSON.stringify(request.json) }),
      answerAnyStatus: true,
      allowedContentTypes: ['application/json', 'text/*'],
      allowedTargets: env.allowedTargets,
      userAgent: PUSH_USER_AGENT,
    });
    return { status: response.status, body: parseJson(response.body.toString('utf8')) };
  } catch (error) {
    if (!(error instanceof FetchRefusedError)) throw error;
    if (error.reason === 'content_type' && error.status !== undefined) {
      return { status: error.status, body: undefined };
    }
    if (ADDRESS_REFUSALS.has(error.reason))
      throw new PushAddressRefusedError(app, error.reason, { cause: error });
    const reason = NO_ANSWER.has(error.reason) ? PUSH_ERRORS.unreachable : PUSH_ERRORS.failed;
    throw new PushCallError(app, error.reason, { cause: error, reason });
  }
}

/** Statuses that mean the credentials are not (or no longer) accepted. */
export function isAuthStatus(status: number): boolean {
  return status === 401 || status === 403;
}

export function field(body: unknown, name: string): unknown {
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}
