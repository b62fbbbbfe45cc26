import { ZodError } from 'zod';
import { AppError, appErrorOfParse, type ErrorFront } from '../../src/errors.ts';
import { errorFields, log } from '../log.ts';

/**
 * An HTTP refusal raised before a front's own code (body-parser's, ours for JSON nested too deep,
 * tRPC's): too large is PAYLOAD_TOO_LARGE, any other 4xx a request the front could not read.
 */
export function appErrorOfStatus(status: number): AppError {
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (status >= 400 && status < 500)
    return new AppError('BAD_REQUEST', undefined, undefined, { reason: 'malformedRequest' });
  return new AppError('INTERNAL');
}

/**
 * Any error a front caught, as an AppError: its own, a refused parse naming each field, an HTTP
 * refusal by its status; anything else is INTERNAL with the generic message, logged, and nothing
 * of its cause (no stack, no SQL) reaches the answer.
 */
export function appErrorOf(error: unknown, front: ErrorFront): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return appErrorOfParse(error);
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return appErrorOfStatus(status);
  log.error('request failed', { front, ...errorFields(error) });
  return new AppError('INTERNAL');
}
