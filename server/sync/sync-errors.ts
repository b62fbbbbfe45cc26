import type { Request } from 'express';
import {
  AppError,
  type AppErrorCode,
  type AppErrorReason,
  DEFAULT_MESSAGE_KEY,
  type ErrorParams,
  httpStatus,
} from '../../src/errors.ts';
import { requestLanguage, translator } from '../i18n.ts';
import { appErrorOf } from '../web/error-fallback.ts';

/** The stable codes the sync fronts answer with (Margin's API sends them; the seed's maps them). */
export type SyncErrorCode =
  | 'invalid_token'
  | 'sync_running'
  | 'sync_disabled'
  | 'invalid_input'
  | 'cursor_invalid'
  | 'not_found'
  | 'pending'
  | 'expired'
  | 'template_failed'
  | 'too_many_requests'
  | 'payload_too_large'
  | 'internal';

/** A refusal as both fronts see it: an HTTP status, a code and the message key to translate. */
export interface SyncFailure {
  status: number;
  code: SyncErrorCode;
  messageKey: string;
  params?: ErrorParams;
}

export const invalidToken = () => new AppError('UNAUTHORIZED', 'errors.syncTokenInvalid');

/** The device flow's poll while the user has not confirmed, and after the ticket is gone. */
export const DEVICE_PENDING: SyncFailure = {
  status: 202,
  code: 'pending',
  messageKey: 'errors.deviceTicketPending',
};
export const DEVICE_EXPIRED: SyncFailure = {
  status: 410,
  code: 'expired',
  messageKey: 'errors.deviceTicketExpired',
};
/** A path the front does not have. */
export const NO_SUCH_CALL: SyncFailure = { status: 404, code: 'not_found', messageKey: 'errors.notFound' };

/** The sync code of each app code; a 5xx is always `internal`. */
const SYNC_CODE: Record<AppErrorCode, SyncErrorCode> = {
  BAD_REQUEST: 'invalid_input',
  UNAUTHORIZED: 'invalid_token',
  FORBIDDEN: 'sync_disabled',
  NOT_FOUND: 'not_found',
  METHOD_NOT_ALLOWED: 'internal',
  CONFLICT: 'sync_running',
  TOO_MANY_REQUESTS: 'too_many_requests',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  INTERNAL: 'internal',
};

/** Refusals with a code of their own: the user's templates failing, a cursor we did not write. */
const SYNC_CODE_OF_REASON: Partial<Record<AppErrorReason, SyncErrorCode>> = {
  templateFailed: 'template_failed',
  budgetExceeded: 'template_failed',
  cursorInvalid: 'cursor_invalid',
};

/**
 * What any error thrown while answering a sync call becomes. A client's mistake keeps its 4xx
 * (body-parser's too large / not JSON, ours for JSON nested too deep); anything else is a 500
 * with nothing of its cause in the answer.
 */
export function syncFailureOf(thrown: unknown): SyncFailure {
  const error = appErrorOf(thrown, 'sync');
  const status = httpStatus(error, 'sync');
  if (status >= 500) return { status, code: 'internal', messageKey: DEFAULT_MESSAGE_KEY.INTERNAL };
  return {
    status,
    code: (error.reason && SYNC_CODE_OF_REASON[error.reason]) ?? SYNC_CODE[error.code],
    messageKey: error.messageKey,
    ...(error.params && { params: error.params }),
  };
}

/**
 * A failure's message in the caller's language (`requestLanguage`: the request's, else the account's). A key
 * no locale has yet falls back to its status's general message rather than showing the key.
 */
export function failureMessage(req: Request, failure: SyncFailure, accountLanguage?: string | null): string {
  const t = translator(requestLanguage(req, accountLanguage));
  const message = t(failure.messageKey, failure.params ?? {});
  if (message !== failure.messageKey) return message;
  return t(FALLBACK_KEYS[failure.status] ?? DEFAULT_MESSAGE_KEY.INTERNAL);
}

const FALLBACK_KEYS: Record<number, string> = {
  400: DEFAULT_MESSAGE_KEY.BAD_REQUEST,
  404: DEFAULT_MESSAGE_KEY.NOT_FOUND,
  413: DEFAULT_MESSAGE_KEY.PAYLOAD_TOO_LARGE,
  429: DEFAULT_MESSAGE_KEY.TOO_MANY_REQUESTS,
};
