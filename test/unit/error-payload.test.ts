import { TRPCError } from '@trpc/server';
import { describe, expect, test } from 'vitest';
import { toErrorPayload } from '../../server/trpc/init.ts';
import { AppError } from '../../src/errors.ts';

describe('toErrorPayload: errors no procedure threw', () => {
  test.each([
    ['PARSE_ERROR', 'BAD_REQUEST', 'errors.invalidInput'],
    ['BAD_REQUEST', 'BAD_REQUEST', 'errors.invalidInput'],
    ['METHOD_NOT_SUPPORTED', 'METHOD_NOT_ALLOWED', 'errors.methodNotAllowed'],
    ['NOT_FOUND', 'NOT_FOUND', 'errors.notFound'],
    ['PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE', 'errors.payloadTooLarge'],
    ['UNSUPPORTED_MEDIA_TYPE', 'BAD_REQUEST', 'errors.invalidInput'],
    ['TIMEOUT', 'BAD_REQUEST', 'errors.invalidInput'],
    ['CLIENT_CLOSED_REQUEST', 'BAD_REQUEST', 'errors.invalidInput'],
    ['INTERNAL_SERVER_ERROR', 'INTERNAL', 'errors.generic'],
    ['NOT_IMPLEMENTED', 'INTERNAL', 'errors.generic'],
  ] as const)('%s → %s (%s)', (code, appCode, messageKey) => {
    expect(toErrorPayload(new TRPCError({ code }))).toEqual({ appCode, messageKey });
  });

  test('an AppError keeps its own code and key', () => {
    const error = new TRPCError({
      code: 'BAD_REQUEST',
      cause: new AppError('BAD_REQUEST', 'errors.invalidCursor'),
    });
    expect(toErrorPayload(error)).toEqual({ appCode: 'BAD_REQUEST', messageKey: 'errors.invalidCursor' });
  });
});
