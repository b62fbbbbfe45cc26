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
 * The translated message for any error: the server's message key, else the
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

/** The refusals of a PRO-only feature: "Only for PRO user" and "Membership expired". */
const PRO_REFUSALS: ReadonlySet<string> = new Set(['errors.onlyForPro', 'errors.membershipExpired']);

/** Where a PRO refusal sends the user when the server names no page of its own. */
export const MEMBERSHIP_PATH = '/personSetting/membership';

/**
 * For a FORBIDDEN answer that refuses a PRO-only feature, the page to upgrade on (the server's
 * `params.upgrade` when it is a path on this site); otherwise null.
 */
export function upgradePathOf(error: unknown): string | null {
  const data = errorData(error);
  if (data?.appCode !== 'FORBIDDEN' || !PRO_REFUSALS.has(data.messageKey)) return null;
  const given = data.params?.upgrade;
  return typeof given === 'string' && given.startsWith('/') && !given.startsWith('//')
    ? given
    : MEMBERSHIP_PATH;
}
