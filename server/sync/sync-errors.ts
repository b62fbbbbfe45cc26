import type { Request } from 'express';
import { ZodError } from 'zod';
import { AppError, DEFAULT_MESSAGE_KEY, type ErrorParams } from '../../src/errors.ts';
import { languageFromHeader, translator } from '../i18n.ts';
import { errorFields, log } from '../log.ts';

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

const TEMPLATE_KEYS = new Set([
  'errors.templateInvalid',
  'errors.templateOutputTooLarge',
  'errors.renderBudgetExceeded',
]);
const CURSOR_INVALID_KEY = 'errors.syncCursorInvalid';

function fromAppError(error: AppError): SyncFailure {
  const known = { messageKey: error.messageKey, ...(error.params && { params: error.params }) };
  switch (error.code) {
    case 'UNAUTHORIZED':
      return { status: 401, code: 'invalid_token', ...known };
    case 'CONFLICT':
      return { status: 409, code: 'sync_running', ...known };
    case 'FORBIDDEN':
      return { status: 403, code: 'sync_disabled', ...known };
    case 'NOT_FOUND':
      return { status: 404, code: 'not_found', ...known };
    case 'TOO_MANY_REQUESTS':
      return { status: 429, code: 'too_many_requests', ...known };
    case 'PAYLOAD_TOO_LARGE':
      return { status: 413, code: 'payload_too_large', ...known };
    case 'BAD_REQUEST':
      // The user's saved template failed on one of their notes: not the request's fault.
      if (TEMPLATE_KEYS.has(error.messageKey)) return { status: 422, code: 'template_failed', ...known };
      return { status: 400, code: badInputCode(error.messageKey), ...known };
    default:
      return { status: 500, code: 'internal', messageKey: DEFAULT_MESSAGE_KEY.INTERNAL };
  }
}

/** A cursor refused by its schema (too long) or by its decoding has a code of its own. */
const badInputCode = (messageKey: string): SyncErrorCode =>
  messageKey === CURSOR_INVALID_KEY ? 'cursor_invalid' : 'invalid_input';

/** Zod issue messages are message keys when they start with `errors.`. */
function fromZodError(error: ZodError): SyncFailure {
  const key = error.issues.map((i) => i.message).find((m) => m.startsWith('errors.'));
  const messageKey = key ?? DEFAULT_MESSAGE_KEY.BAD_REQUEST;
  return { status: 400, code: badInputCode(messageKey), messageKey };
}

/**
 * What any error thrown while answering a sync call becomes. A client's mistake keeps its 4xx
 * (body-parser's too large / not JSON, ours for JSON nested too deep); anything else is a 500,
 * logged, with nothing of its cause in the answer.
 */
export function syncFailureOf(error: unknown): SyncFailure {
  if (error instanceof AppError) return fromAppError(error);
  if (error instanceof ZodError) return fromZodError(error);
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 413)
    return { status, code: 'payload_too_large', messageKey: DEFAULT_MESSAGE_KEY.PAYLOAD_TOO_LARGE };
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status: 400, code: 'invalid_input', messageKey: DEFAULT_MESSAGE_KEY.BAD_REQUEST };
  }
  log.error('sync request failed', errorFields(error));
  return { status: 500, code: 'internal', messageKey: DEFAULT_MESSAGE_KEY.INTERNAL };
}

/**
 * A failure's message in the caller's language (Accept-Language, else the account's). A key
 * no locale has yet falls back to its status's general message rather than showing the key.
 */
export function failureMessage(req: Request, failure: SyncFailure, accountLanguage?: string | null): string {
  const t = translator(languageFromHeader(req.get('accept-language')) ?? accountLanguage);
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
