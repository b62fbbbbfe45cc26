import type { Request } from 'express';
import { ZodError } from 'zod';
import { AppError, type AppErrorCode, DEFAULT_MESSAGE_KEY, fieldErrorsOf } from '../../src/errors.ts';
import { languageFromHeader, translator } from '../i18n.ts';
import { errorFields, log } from '../log.ts';
import type { ApiErrorType, Failure } from './envelope.ts';

const BY_CODE: Record<AppErrorCode, { status: number; type: ApiErrorType }> = {
  BAD_REQUEST: { status: 422, type: 'invalid_input' },
  UNAUTHORIZED: { status: 401, type: 'unauthorized' },
  FORBIDDEN: { status: 403, type: 'forbidden' },
  NOT_FOUND: { status: 404, type: 'not_found' },
  METHOD_NOT_ALLOWED: { status: 405, type: 'invalid_input' },
  CONFLICT: { status: 409, type: 'conflict' },
  TOO_MANY_REQUESTS: { status: 429, type: 'too_many_requests' },
  PAYLOAD_TOO_LARGE: { status: 413, type: 'payload_too_large' },
  INTERNAL: { status: 500, type: 'internal' },
};

/**
 * Any error thrown while answering becomes a status and the envelope, its message in the
 * caller's language (Accept-Language, else the account's). Bad input is 422 naming each field;
 * body-parser's refusals keep their 4xx; anything else is a logged 500 that says nothing of its cause.
 */
export function failureOf(
  error: unknown,
  req: Request,
  accountLanguage?: string | null,
): { status: number; body: Failure } {
  const t = translator(languageFromHeader(req.get('accept-language')) ?? accountLanguage);
  const answer = (
    status: number,
    type: ApiErrorType,
    message: string,
    more: Omit<Failure['error'], 'type'> = {},
  ) => ({ status, body: { code: status, message, data: null, error: { type, ...more } } });
  if (error instanceof ZodError) {
    const fields = fieldErrorsOf(error).map((f) => ({ path: f.path, message: t(f.messageKey) }));
    const first = fields[0];
    const message = first
      ? `${first.path ? `${first.path}: ` : ''}${first.message}`
      : t('errors.invalidInput');
    return answer(422, 'invalid_input', message, { fields });
  }
  if (error instanceof AppError) {
    const { status, type } = BY_CODE[error.code];
    const upgrade = error.params?.upgrade;
    return answer(
      status,
      type,
      t(error.messageKey, error.params ?? {}),
      typeof upgrade === 'string' ? { upgrade } : {},
    );
  }
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 413) return answer(413, 'payload_too_large', t(DEFAULT_MESSAGE_KEY.PAYLOAD_TOO_LARGE));
  if (typeof status === 'number' && status >= 400 && status < 500)
    return answer(400, 'invalid_input', t(DEFAULT_MESSAGE_KEY.BAD_REQUEST));
  log.error('open api request failed', errorFields(error));
  return answer(500, 'internal', t(DEFAULT_MESSAGE_KEY.INTERNAL));
}
