import fs from 'node:fs';
import { API_TOKENS_PER_USER_MAX } from '../src/schemas/api-tokens.ts';
import {
  ALWAYS_OPEN_FEATURES,
  FEATURES,
  type MembershipConfig,
  type Product,
  zMembershipConfig,
} from '../src/schemas/membership.ts';
import { WEBHOOK_ENDPOINTS_PER_USER_MAX } from '../src/schemas/webhooks.ts';
import { StartupError } from './lifecycle.ts';

const PRO_FEATURES = FEATURES;
/** The pro row's limits (and free's, which has none of the features they bound). */
const PRO_QUOTAS = {
  apiRequestsPerMinute: 120,
  apiTokens: API_TOKENS_PER_USER_MAX,
  webhookEndpoints: WEBHOOK_ENDPOINTS_PER_USER_MAX,
};
const FREE_FEATURES = ALWAYS_OPEN_FEATURES;

/** Europe and the US sell the same plans at the same figures, in euros and in dollars. */
const INTERNATIONAL_PRODUCTS = [
  { id: 'pro-month', tier: 'pro', days: 31, amount: 499 },
  { id: 'pro-year', tier: 'pro', days: 366, amount: 3_999 },
  { id: 'super-pro-year', tier: 'superPro', days: 366, amount: 8_999 },
] satisfies Product[];

/**
 * The default plan table and prices. An operator changes them with a JSON file named by
 * MEMBERSHIP_CONFIG holding any of the top-level keys (`plans`, `prices`, `proTipsPerDay`); a key
 * given there replaces the default one whole, and the result is checked like the rest of the config.
 */
export const DEFAULT_MEMBERSHIP_CONFIG: MembershipConfig = {
  plans: {
    free: { features: [...FREE_FEATURES], quotas: PRO_QUOTAS },
    pro: { features: [...PRO_FEATURES], quotas: PRO_QUOTAS },
    superPro: {
      features: [...PRO_FEATURES],
      quotas: { apiRequestsPerMinute: 600, apiTokens: 100, webhookEndpoints: 50 },
    },
  },
  prices: {
    chn: {
      currency: 'CNY',
      providers: ['wechat', 'alipay'],
      products: [
        { id: 'pro-month', tier: 'pro', days: 31, amount: 1_800 },
        { id: 'pro-year', tier: 'pro', days: 366, amount: 16_800 },
        { id: 'super-pro-year', tier: 'superPro', days: 366, amount: 39_800 },
      ],
    },
    euro: { currency: 'EUR', providers: ['stripe'], products: INTERNATIONAL_PRODUCTS },
    us: { currency: 'USD', providers: ['stripe'], products: INTERNATIONAL_PRODUCTS },
  },
  proTipsPerDay: 2,
};

/** The membership table: the defaults, with the top-level keys of the operator's file put over them. */
export function loadMembershipConfig(file: string | undefined): MembershipConfig {
  if (!file) return DEFAULT_MEMBERSHIP_CONFIG;
  let given: unknown;
  try {
    given = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new StartupError(`MEMBERSHIP_CONFIG: cannot read ${file} as JSON (${(error as Error).message})`);
  }
  const parsed = zMembershipConfig.partial().strict().safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new StartupError(`MEMBERSHIP_CONFIG ${file} is not a valid membership table:\n${lines.join('\n')}`);
  }
  return { ...DEFAULT_MEMBERSHIP_CONFIG, ...parsed.data };
}
