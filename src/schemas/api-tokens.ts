import { z } from 'zod';
import { zText } from '../rules/text.ts';

// Open API tokens (`Authorization: Bearer mapi_…`): what the settings page sends and reads.

/** Every token starts with this, so a leaked one is recognisable (and never taken for a sync token). */
export const API_TOKEN_PREFIX = 'mapi_';

/**
 * What a token may do: `read` every GET but the daily notes', `write` every other method but the
 * daily notes', `daily` the daily-note endpoints (read and append). In this order everywhere.
 */
export const API_SCOPES = ['read', 'write', 'daily'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** The expiry choices, in days; null is "never". */
export const API_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export type ApiTokenExpiryDays = (typeof API_TOKEN_EXPIRY_DAYS)[number];

export const API_TOKEN_NAME_MAX = 100;
/** Live (neither revoked nor expired) tokens one account may hold. */
export const API_TOKENS_PER_USER_MAX = 25;

export const zApiScope = z.enum(API_SCOPES);

export const zCreateApiTokenInput = z.object({
  name: zText().trim().min(1, 'errors.cannotBeEmpty').max(API_TOKEN_NAME_MAX, 'errors.nameTooLong'),
  scopes: z
    .array(zApiScope)
    .min(1, 'errors.apiScopesEmpty')
    .max(API_SCOPES.length, 'errors.invalidInput')
    .refine((scopes) => new Set(scopes).size === scopes.length, 'errors.invalidInput'),
  expiresInDays: z.union(API_TOKEN_EXPIRY_DAYS.map((days) => z.literal(days))).nullable(),
});
export type CreateApiTokenInput = z.infer<typeof zCreateApiTokenInput>;

export const zApiTokenId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const zApiTokenIdInput = z.object({ id: zApiTokenId });

export const zApiTokenView = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The token's first characters (`mapi_ab12`), enough to tell tokens apart; never the whole token. */
  hint: z.string(),
  scopes: z.array(zApiScope),
  createdAt: z.date(),
  expiresAt: z.date().nullable(),
  /** Past its expiry: listed until revoked, refused by the API. */
  expired: z.boolean(),
  lastUsedAt: z.date().nullable(),
});
export type ApiTokenView = z.infer<typeof zApiTokenView>;

/** A new token: the plain token, shown once, and how the list shows it from now on. */
export const zCreatedApiToken = z.object({ token: z.string(), view: zApiTokenView });
