/**
 * The error every service throws. `code` is what the client switches on, `messageKey` is an
 * i18n key (under `errors.`) the client translates, `params` fill its placeholders.
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

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly messageKey: string;
  readonly params: ErrorParams | undefined;

  constructor(code: AppErrorCode, messageKey?: string, params?: ErrorParams) {
    const key = messageKey ?? DEFAULT_MESSAGE_KEY[code];
    super(key);
    this.name = 'AppError';
    this.code = code;
    this.messageKey = key;
    this.params = params;
  }
}

/** What travels to clients in `error.data` (tRPC) and the Open API envelope. */
export interface ErrorPayload {
  appCode: AppErrorCode;
  messageKey: string;
  params?: ErrorParams;
  fieldErrors?: { path: string; messageKey: string }[];
}

/** Each refused field of a failed zod parse: its dotted path and an i18n key (issue messages are keys when they start with `errors.`). */
export function fieldErrorsOf(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}): { path: string; messageKey: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    messageKey: issue.message.startsWith('errors.') ? issue.message : 'errors.invalidInput',
  }));
}
