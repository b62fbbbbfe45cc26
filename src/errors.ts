/**
 * The error every service throws. `code` is what the client switches on, `messageKey` is an
 * i18n key (under `errors.`) the client translates, `params` fill its placeholders. A `reason`
 * tells apart refusals of one code that a front answers differently; it never goes on the wire.
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'TOO_MANY_REQUESTS',
  'PAYLOAD_TOO_LARGE',
  'INTERNAL',
] as const;
export type AppErrorCode = (typeof ERROR_CODES)[number];

export const ERROR_REASONS = [
  /** The user's saved template failed on one of their notes (it does not parse, its output is too large). */
  'templateFailed',
  /** The request's compute budget ran out (the user's templates are too slow for one request). */
  'budgetExceeded',
  /** A sync cursor the server did not write, or wrote for another integration. */
  'cursorInvalid',
  /** A request the front could not read at all (not JSON, nested too deep, a charset it does not read). */
  'malformedRequest',
] as const;
export type AppErrorReason = (typeof ERROR_REASONS)[number];

/** The message key a code falls back to when the thrower gave none. */
export const DEFAULT_MESSAGE_KEY: Record<AppErrorCode, string> = {
  BAD_REQUEST: 'errors.invalidInput',
  UNAUTHORIZED: 'errors.unauthorized',
  FORBIDDEN: 'errors.forbidden',
  NOT_FOUND: 'errors.notFound',
  METHOD_NOT_ALLOWED: 'errors.methodNotAllowed',
  CONFLICT: 'errors.conflict',
  TOO_MANY_REQUESTS: 'errors.tooManyRequests',
  PAYLOAD_TOO_LARGE: 'errors.payloadTooLarge',
  INTERNAL: 'errors.generic',
};

export type ErrorParams = Record<string, string | number>;

/** One refused field of a parse: its dotted path and an i18n key. */
export interface FieldError {
  path: string;
  messageKey: string;
}

export interface AppErrorOptions {
  reason?: AppErrorReason;
  /** Each refused field, when the error is a refused parse. */
  fieldErrors?: FieldError[];
}

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly messageKey: string;
  readonly params: ErrorParams | undefined;
  readonly reason: AppErrorReason | undefined;
  readonly fieldErrors: FieldError[] | undefined;

  constructor(code: AppErrorCode, messageKey?: string, params?: ErrorParams, options: AppErrorOptions = {}) {
    const key = messageKey ?? DEFAULT_MESSAGE_KEY[code];
    super(key);
    this.name = 'AppError';
    this.code = code;
    this.messageKey = key;
    this.params = params;
    this.reason = options.reason;
    this.fieldErrors = options.fieldErrors;
  }
}

// ---- HTTP status: one table, and where a front answers otherwise -----------------------------

/** The ways in that answer errors over HTTP: the tRPC router, the REST API, the sync fronts. */
export const ERROR_FRONTS = ['trpc', 'rest', 'sync'] as const;
export type ErrorFront = (typeof ERROR_FRONTS)[number];

const HTTP_STATUS: Record<AppErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  PAYLOAD_TOO_LARGE: 413,
  INTERNAL: 500,
};

interface StatusOverrides {
  /** Checked first: a reason the front answers with a status of its own. */
  reasons?: Partial<Record<AppErrorReason, number>>;
  codes?: Partial<Record<AppErrorCode, number>>;
}

const FRONT_STATUS: Record<ErrorFront, StatusOverrides> = {
  trpc: {},
  // Input the API read but refuses is 422 (Unprocessable Content); a body it could not read is 400.
  rest: { codes: { BAD_REQUEST: 422 }, reasons: { malformedRequest: 400 } },
  // A saved template failing on a note is not the request's fault (422). The sync fronts have no
  // answer of their own for a method not allowed and answer it as an internal error.
  sync: {
    codes: { METHOD_NOT_ALLOWED: 500 },
    reasons: { templateFailed: 422, budgetExceeded: 422 },
  },
};

/** The HTTP status `front` answers an error with. */
export function httpStatus(error: Pick<AppError, 'code' | 'reason'>, front: ErrorFront): number {
  const overrides = FRONT_STATUS[front];
  const byReason = error.reason === undefined ? undefined : overrides.reasons?.[error.reason];
  return byReason ?? overrides.codes?.[error.code] ?? HTTP_STATUS[error.code];
}

// ---- Refused parses ------------------------------------------------------------------------

/** What travels to clients in `error.data` (tRPC) and the Open API envelope. */
export interface ErrorPayload {
  appCode: AppErrorCode;
  messageKey: string;
  params?: ErrorParams;
  fieldErrors?: FieldError[];
}

interface ParseIssue {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  params?: Record<string, unknown>;
}

const isMessageKey = (message: string) => message.startsWith('errors.');

/** Each refused field of a failed zod parse: its dotted path and an i18n key (issue messages are keys when they start with `errors.`). */
export function fieldErrorsOf(error: { issues: readonly ParseIssue[] }): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    messageKey: isMessageKey(issue.message) ? issue.message : 'errors.invalidInput',
  }));
}

/**
 * A schema's refusal that carries a reason, as the AppError the domain throws for the same
 * refusal does: `z.string().refine(check, refusal('errors.syncCursorInvalid', 'cursorInvalid'))`.
 */
export function refusal(
  messageKey: string,
  reason: AppErrorReason,
): { message: string; params: { reason: AppErrorReason } } {
  return { message: messageKey, params: { reason } };
}

function reasonOf(issue: ParseIssue | undefined): AppErrorReason | undefined {
  const reason = issue?.params?.reason;
  return ERROR_REASONS.find((known) => known === reason);
}

/**
 * A failed zod parse as a BAD_REQUEST naming each refused field. Its message and reason are the
 * first field refused with a message key of its own (zod's own messages are not keys).
 */
export function appErrorOfParse(error: { issues: readonly ParseIssue[] }): AppError {
  const keyed = error.issues.find((issue) => isMessageKey(issue.message));
  return new AppError('BAD_REQUEST', keyed?.message, undefined, {
    reason: reasonOf(keyed),
    fieldErrors: fieldErrorsOf(error),
  });
}
