import type { Request } from 'express';
import { type AppErrorCode, httpStatus } from '../../src/errors.ts';
import { requestLanguage, translator } from '../i18n.ts';
import { appErrorOf } from '../web/error-fallback.ts';
import type { ApiErrorType, Failure } from './envelope.ts';

const ERROR_TYPE: Record<AppErrorCode, ApiErrorType> = {
  BAD_REQUEST: 'invalid_input',
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  METHOD_NOT_ALLOWED: 'invalid_input',
  CONFLICT: 'conflict',
  TOO_MANY_REQUESTS: 'too_many_requests',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  INTERNAL: 'internal',
};

/**
 * Any error thrown while answering becomes a status and the envelope, its message in the
 * caller's language (`requestLanguage`: the request's, else the account's). Bad input is 422 naming each field;
 * body-parser's refusals keep their 4xx; anything else is a logged 500 that says nothing of its cause.
 */
export function failureOf(
  thrown: unknown,
  req: Request,
  accountLanguage?: string | null,
): { status: number; body: Failure } {
  const t = translator(requestLanguage(req, accountLanguage));
  const error = appErrorOf(thrown, 'rest');
  const status = httpStatus(error, 'rest');
  const answer = (message: string, more: Omit<Failure['error'], 'type'> = {}) => ({
    status,
    body: { code: status, message, data: null, error: { type: ERROR_TYPE[error.code], ...more } },
  });
  if (error.fieldErrors) {
    const fields = error.fieldErrors.map((f) => ({ path: f.path, message: t(f.messageKey) }));
    const first = fields[0];
    return answer(first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : t(error.messageKey), {
      fields,
    });
  }
  const upgrade = error.params?.upgrade;
  return answer(t(error.messageKey, error.params ?? {}), typeof upgrade === 'string' ? { upgrade } : {});
}
