import { TRPCClientError } from '@trpc/client';
import type { TFunction } from 'i18next';

interface ErrorData {
  messageKey?: string;
  params?: Record<string, string | number>;
}

/**
 * The translated message for any error (spec section 8): the server's message key, else the
 * supplied fallback, else the generic message. Network failures get their own words.
 */
export function errorMessage(error: unknown, t: TFunction, fallbackKey = 'errors.generic'): string {
  if (error instanceof TRPCClientError) {
    const data = error.data as ErrorData | undefined;
    if (data?.messageKey) return t(data.messageKey, { ...data.params, defaultValue: t(fallbackKey) });
    if (error.cause instanceof DOMException && error.cause.name === 'AbortError') return t('errors.aborted');
    if (error.cause instanceof TypeError || error.message === 'Failed to fetch') return t('errors.network');
  }
  return t(fallbackKey);
}

/** The first field error of a validation failure, keyed by field path. */
export function fieldErrorKeys(error: unknown): Record<string, string> {
  if (!(error instanceof TRPCClientError)) return {};
  const fields = (error.data as { fieldErrors?: { path: string; messageKey: string }[] } | undefined)
    ?.fieldErrors;
  const out: Record<string, string> = {};
  for (const f of fields ?? []) out[f.path] ??= f.messageKey;
  return out;
}
