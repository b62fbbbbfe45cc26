import { TRPCClientError } from '@trpc/client';
import type { TFunction } from 'i18next';
import type { AppRouter } from '../../server/trpc/app.router.ts';

/** `error.data` as the server's error formatter sends it: tRPC's code and status, and the app's payload. */
type ErrorData = NonNullable<TRPCClientError<AppRouter>['data']>;

/** The server's error data, or undefined for an error that did not come from the server. */
export function errorData(error: unknown): ErrorData | undefined {
  return error instanceof TRPCClientError
    ? ((error as TRPCClientError<AppRouter>).data ?? undefined)
    : undefined;
}

/**
 * The translated message for any error (spec section 8): the server's message key, else the
 * supplied fallback, else the generic message. Network failures get their own words.
 */
export function errorMessage(error: unknown, t: TFunction, fallbackKey = 'errors.generic'): string {
  if (error instanceof TRPCClientError) {
    const data = errorData(error);
    if (data?.messageKey) return t(data.messageKey, { ...data.params, defaultValue: t(fallbackKey) });
    if (error.cause instanceof DOMException && error.cause.name === 'AbortError') return t('errors.aborted');
    if (error.cause instanceof TypeError || error.message === 'Failed to fetch') return t('errors.network');
  }
  return t(fallbackKey);
}

/** The first field error of a validation failure, keyed by field path. */
export function fieldErrorKeys(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of errorData(error)?.fieldErrors ?? []) out[f.path] ??= f.messageKey;
  return out;
}
