import { z } from 'zod';
import { MemberTier } from '../enums.ts';
import { zText } from '../rules/text.ts';

// Membership: the plan table (what each level gets), the prices by region, orders.

/**
 * What a level can be given. Free keeps clipping, highlights, the library, export and pull sync
 * (the sync API and plugins) by default; the others are PRO in the default table.
 */
export const FEATURES = [
  'clip',
  'highlights',
  'library',
  'export',
  'pullSync',
  'openApi',
  'webhooks',
  'assistant',
  'push',
  'dailyApi',
] as const;
export type Feature = (typeof FEATURES)[number];

/**
 * What every level keeps: a user's own reading and their way out with it. No check guards these,
 * so a plan table may not take them from a level. (The assistant is listed for the table and the
 * membership page; it arrives in a later release, with its check.)
 */
export const ALWAYS_OPEN_FEATURES: readonly Feature[] = [
  'clip',
  'highlights',
  'library',
  'export',
  'pullSync',
];

/** The push tools the `push` feature covers; SiYuan's push goes with its pull sync, which is free. */
const PUSH_FEATURE_APPS: readonly string[] = ['flomo', 'workflowy'];
export const needsPushFeature = (app: string): boolean => PUSH_FEATURE_APPS.includes(app);

/** Per-level limits that differ between pro and super pro. */
export const zQuotas = z.object({
  /** Open API requests per token per minute. */
  apiRequestsPerMinute: z.number().int().min(1).max(100_000),
  /** Live Open API tokens. */
  apiTokens: z.number().int().min(0).max(10_000),
  /** Webhook endpoints. */
  webhookEndpoints: z.number().int().min(0).max(1_000),
});
export type Quotas = z.infer<typeof zQuotas>;
export type Quota = keyof Quotas;

export const zLevelPlan = z.object({
  features: z
    .array(z.enum(FEATURES))
    .refine((features) => ALWAYS_OPEN_FEATURES.every((f) => features.includes(f)), {
      message: `every level keeps ${ALWAYS_OPEN_FEATURES.join(', ')}`,
    }),
  quotas: zQuotas,
});
export type LevelPlan = z.infer<typeof zLevelPlan>;

/** The plan table: one row a level (spec: free, pro, super pro). */
export const zPlanTable = z.object({
  free: zLevelPlan,
  pro: zLevelPlan,
  superPro: zLevelPlan,
});

export const PAYMENT_PROVIDERS = ['stripe', 'wechat', 'alipay'] as const;
export type PaymentProviderId = (typeof PAYMENT_PROVIDERS)[number];

export const CURRENCIES = ['CNY', 'EUR', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** A thing to buy: a level for a number of days at a price in the currency's minor unit. */
export const zProduct = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,32}$/),
  tier: z.enum([MemberTier.pro, MemberTier.superPro]),
  days: z.number().int().min(1).max(3660),
  /** Minor units: cents, fen. */
  amount: z.number().int().min(1).max(100_000_000),
});
export type Product = z.infer<typeof zProduct>;

/** What one region sells and how it is paid (spec: the membership page differs by region). */
/** WeChat Pay (Native) and Alipay take yuan only. */
const CNY_ONLY_PROVIDERS: readonly PaymentProviderId[] = ['wechat', 'alipay'];

export const zRegionPrices = z
  .object({
    currency: z.enum(CURRENCIES),
    providers: z.array(z.enum(PAYMENT_PROVIDERS)).min(1),
    products: z.array(zProduct).min(1),
  })
  .refine((r) => r.currency === 'CNY' || !r.providers.some((p) => CNY_ONLY_PROVIDERS.includes(p)), {
    path: ['providers'],
    message: 'WeChat Pay and Alipay take CNY only',
  });

/** The operator's membership file (MEMBERSHIP_CONFIG): any part left out keeps its default. */
export const zMembershipConfig = z.object({
  plans: zPlanTable,
  prices: z.object({ chn: zRegionPrices, euro: zRegionPrices, us: zRegionPrices }),
  /** PRO prompts a user sees at most per day (the spec's per-day counter). */
  proTipsPerDay: z.number().int().min(0).max(100),
});
export type MembershipConfig = z.infer<typeof zMembershipConfig>;

// Orders -----------------------------------------------------------------------------------------

/** created → paid → (refunded | closed); an unpaid order can also be closed (expired, cancelled). */
export const ORDER_STATES = ['created', 'paid', 'refunded', 'closed'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** Who made an order: a payment provider, or the operator's CLI. */
export const ORDER_SOURCES = [...PAYMENT_PROVIDERS, 'admin'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

/** How the buyer pays: a page to go to (Stripe Checkout, Alipay page pay) or a QR code to scan. */
export const zCheckout = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('redirect'), url: z.url() }),
  z.object({ kind: z.literal('qr'), codeUrl: z.string().min(1).max(2048) }),
]);
export type Checkout = z.infer<typeof zCheckout>;

/** An order as its owner sees it (spec: order id, price, created, PRO days, remark, description). */
export const zOrderView = z.object({
  id: z.string(),
  state: z.enum(ORDER_STATES),
  source: z.enum(ORDER_SOURCES),
  tier: z.enum([MemberTier.pro, MemberTier.superPro]),
  amount: z.number().int(),
  currency: z.enum(CURRENCIES),
  proDays: z.number().int(),
  remark: z.string().nullable(),
  description: z.string(),
  createdAt: z.date(),
  paidAt: z.date().nullable(),
  checkout: zCheckout.nullable(),
});
export type OrderView = z.infer<typeof zOrderView>;

export const ORDER_ID_PATTERN = /^mo[0-9a-z]{22}$/;
export const zOrderId = zText().max(24).regex(ORDER_ID_PATTERN, { error: 'errors.notFound' });

export const zCreateOrderInput = z.object({
  productId: zText().max(32),
  provider: z.enum(PAYMENT_PROVIDERS),
});
export type CreateOrderInput = z.infer<typeof zCreateOrderInput>;

export const zOrderListInput = z.object({
  cursor: zText().max(200).nullish(),
  limit: z.number().int().min(1).max(100).default(20),
});

export const zOrderList = z.object({ items: z.array(zOrderView), nextCursor: z.string().nullable() });
export type OrderList = z.infer<typeof zOrderList>;

/** The membership page: the current plan, and what this region sells and through which providers. */
export const zMembershipOverview = z.object({
  membershipOn: z.boolean(),
  region: z.enum(['chn', 'euro', 'us']),
  state: z.enum(['free', 'pro', 'superPro', 'expired']),
  proExpiresAt: z.date().nullable(),
  currency: z.enum(CURRENCIES),
  products: z.array(zProduct),
  /** The region's providers that this install has keys for. */
  providers: z.array(z.enum(PAYMENT_PROVIDERS)),
  features: z.object({
    free: z.array(z.enum(FEATURES)),
    pro: z.array(z.enum(FEATURES)),
    superPro: z.array(z.enum(FEATURES)),
  }),
  quotas: z.object({ free: zQuotas, pro: zQuotas, superPro: zQuotas }),
  /** The signed-in user's limits now. */
  myQuotas: zQuotas,
});
export type MembershipOverview = z.infer<typeof zMembershipOverview>;
