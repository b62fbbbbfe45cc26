import fs from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { EXTENSION_VERSION, zVersion } from '../src/schemas/extension.ts';
import type { MembershipConfig } from '../src/schemas/membership.ts';
import { PACKAGES_DIST_DIR } from './domain/system/built-packages.ts';
import { StartupError } from './lifecycle.ts';
import { loadMembershipConfig } from './membership-config.ts';

const REGIONS = ['chn', 'euro', 'us'] as const;

const zOptionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url().optional());

/** Empty counts as unset: compose passes an unset `${VAR:-}` as "". */
const zOptionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const zList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** A whole number in [1, max], or unset (empty counts as unset). */
function zOptionalCount(max: number) {
  const error = `a whole number from 1 to ${max}`;
  return zOptionalText.pipe(
    z.coerce.number<string>({ error }).int({ error }).min(1, { error }).max(max, { error }).optional(),
  );
}

/** A port in [1, 65535], or unset (empty counts as unset). */
const zOptionalPort = zOptionalCount(65_535);

/**
 * METRICS_TOKEN: long enough that guessing is hopeless, printable ASCII without spaces so it
 * travels as it is in `Authorization: Bearer …`.
 */
const METRICS_TOKEN_MIN = 24;
const zMetricsToken = zOptionalText.pipe(
  z
    .string()
    .regex(/^[\x21-\x7e]+$/, { error: 'printable ASCII without spaces' })
    .min(METRICS_TOKEN_MIN, { error: `at least ${METRICS_TOKEN_MIN} characters` })
    .optional(),
);

/** Express's names for address ranges (proxy-addr), usable in TRUST_PROXY. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, `address/prefix` or `address/netmask`, as proxy-addr accepts them. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

/**
 * Express's `trust proxy`, from TRUST_PROXY. Unset, empty or `false`: no proxy is trusted and
 * X-Forwarded-For is ignored (a client could otherwise pick its own IP for rate limits and
 * session records). `true` trusts every hop, a number trusts that many hops, and otherwise a
 * comma-separated list of addresses, CIDR ranges and the names loopback, linklocal, uniquelocal.
 */
const zTrustProxy = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx): TrustProxy => {
    if (!v || v === 'false') return false;
    if (v === 'true') return true;
    if (/^\d+$/.test(v)) return Number(v);
    const entries = v.split(',').map((s) => s.trim());
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `not an address, CIDR range, hop count or loopback/linklocal/uniquelocal: ${bad.join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

/** What Express's `trust proxy` takes: trust nothing/everything, a hop count, or addresses. */
export type TrustProxy = boolean | number | string[];

/** Every setting the app reads from the environment, validated once at start. */
const zEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: zOptionalUrl,
  DATABASE_URL: zOptionalUrl,
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  /** Prefix of every Redis key (queues, rate limits, tickets): lets installs share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w-]{1,40}$/)
    .default('margin'),
  SMTP_URL: zOptionalUrl,
  MAIL_FROM: z.string().min(3).default('Margin <no-reply@margin.localhost>'),
  REGION: z.enum(REGIONS).default('us'),
  /** `on`: PRO-only features (the Open API among them) need a membership; `off`: everyone has everything. */
  MEMBERSHIP: z.enum(['off', 'on']).default('off'),
  /** A JSON file replacing parts of the plan table and prices (server/membership-config.ts). */
  MEMBERSHIP_CONFIG: zOptionalText,
  /** Where feedback and operator notices are mailed. */
  OPERATOR_EMAIL: zOptionalText.pipe(z.email().optional()),
  /** Stripe: off until both keys are set. STRIPE_API_URL points the SDK elsewhere (tests). */
  STRIPE_SECRET_KEY: zOptionalText,
  STRIPE_WEBHOOK_SECRET: zOptionalText,
  STRIPE_API_URL: zOptionalUrl,
  /** WeChat Pay v3 (Native): off until every key but the API URL is set. */
  WECHATPAY_APP_ID: zOptionalText,
  WECHATPAY_MCH_ID: zOptionalText,
  WECHATPAY_MCH_CERT_FILE: zOptionalText,
  WECHATPAY_MCH_KEY_FILE: zOptionalText,
  WECHATPAY_API_V3_KEY: zOptionalText,
  WECHATPAY_API_URL: zOptionalUrl,
  /** Alipay: off until the app id and both key files are set. */
  ALIPAY_APP_ID: zOptionalText,
  ALIPAY_PRIVATE_KEY_FILE: zOptionalText,
  ALIPAY_PUBLIC_KEY_FILE: zOptionalText,
  ALIPAY_GATEWAY_URL: zOptionalUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  /** Where uploaded and stored files live: `local` (under DATA_DIR/files) or `s3` (the S3_* settings). */
  STORAGE: z.enum(['local', 's3']).default('local'),
  /** Any S3-compatible store; S3_ENDPOINT is unset for AWS itself. */
  S3_BUCKET: zOptionalText,
  S3_REGION: zOptionalText,
  S3_ACCESS_KEY_ID: zOptionalText,
  S3_SECRET_ACCESS_KEY: zOptionalText,
  S3_ENDPOINT: zOptionalUrl,
  /** `1` addresses buckets as `<endpoint>/<bucket>` (MinIO and most self-hosted stores). */
  S3_FORCE_PATH_STYLE: z.enum(['0', '1']).default('0'),
  /** Browser extensions older than this are refused with "Plugin version is too low". */
  EXTENSION_MIN_VERSION: zVersion.default(EXTENSION_VERSION),
  TRUST_PROXY: zTrustProxy,
  /** Bearer token for /metrics and /healthz's details; unset: no token opens them. */
  METRICS_TOKEN: zMetricsToken,
  /** A listener of its own for /metrics and /healthz's details (on METRICS_HOST). */
  METRICS_PORT: zOptionalPort,
  METRICS_HOST: zOptionalText,
  /** host:port pairs the guarded fetcher may reach although they are private (tests, intranets). */
  FETCH_ALLOW_TARGETS: zList,
  /** Run BullMQ workers inside the HTTP process (the single-machine `npm start`). */
  INLINE_WORKERS: z.enum(['0', '1']).default('0'),
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
  /** How long a worker holds a job before another may take it over (after a crash). */
  JOB_LOCK_MS: z.coerce.number().int().min(1000).default(30_000),
  /** Per-page time limit of article extraction. */
  EXTRACT_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  /** Clip jobs one worker process runs at once. Default: from the extraction pool's size. */
  CLIP_CONCURRENCY: zOptionalCount(256),
  /** Worker threads that extract (and sanitise) clipped pages. Default: from the core count. */
  EXTRACT_POOL_SIZE: zOptionalCount(64),
  /** Worker threads that render templates and convert articles to Markdown. Default: from the core count. */
  COMPUTE_POOL_SIZE: zOptionalCount(64),
  /** Where flomo's incoming webhooks live: a connected webhook URL must start with it. */
  FLOMO_API_ORIGIN: z.url().default('https://flomoapp.com'),
  /** WorkFlowy's API origin (`/api/v1/nodes` under it). */
  WORKFLOWY_API_ORIGIN: z.url().default('https://workflowy.com'),
  /** Highlight changes within this time make one push to flomo, WorkFlowy or SiYuan. */
  PUSH_DEBOUNCE_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
  /** A failed push is retried after this long, then twice as long each time. */
  PUSH_RETRY_DELAY_MS: z.coerce.number().int().min(1).max(3_600_000).default(30_000),
  OIDC_ISSUER: zOptionalUrl,
  OIDC_CLIENT_ID: zOptionalText,
  /** Unset or empty for a public client (PKCE only). */
  OIDC_CLIENT_SECRET: zOptionalText,
});

/** The names of every environment variable above (deployment files are checked against it). */
export const CONFIG_KEYS = Object.keys(zEnv.shape) as (keyof typeof zEnv.shape)[];

export type Region = (typeof REGIONS)[number];

export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string | undefined;
  databaseUrl: string | undefined;
  /** MEMBERSHIP=on: PRO-only features are checked against the user's membership. */
  membership: boolean;
  /** The plan table, prices and PRO-tip count (MEMBERSHIP_CONFIG over the defaults). */
  membershipConfig: MembershipConfig;
  operatorEmail: string | undefined;
  /** Each payment provider whose keys are set; an absent one is off. */
  payments: PaymentsConfig;
  embeddedPgPort: number;
  redisUrl: string;
  redisPrefix: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  region: Region;
  dataDir: string;
  storage: StorageConfig;
  extensionMinVersion: string;
  /**
   * The built plugin and extension packages the server offers (`dist/`); not a setting, as the
   * builds write there: tests point it at a build of their own.
   */
  packagesDir: string;
  trustProxy: TrustProxy;
  metrics: MetricsConfig;
  fetchAllowTargets: string[];
  inlineWorkers: boolean;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  jobLockMs: number;
  extractTimeoutMs: number;
  clipConcurrency: number;
  extractPoolSize: number;
  computePoolSize: number;
  /** Origins without a trailing slash. */
  flomoApiOrigin: string;
  workflowyApiOrigin: string;
  pushDebounceMs: number;
  pushRetryDelayMs: number;
  oidc: { issuer: string; clientId: string; clientSecret: string | undefined } | undefined;
}

export interface PaymentsConfig {
  stripe?: { secretKey: string; webhookSecret: string; apiUrl: string | undefined };
  wechat?: {
    appId: string;
    mchId: string;
    mchCertFile: string;
    mchKeyFile: string;
    apiV3Key: string;
    apiUrl: string | undefined;
  };
  alipay?: { appId: string; privateKeyFile: string; publicKeyFile: string; gatewayUrl: string | undefined };
}

/**
 * Who may read /metrics and the details of /healthz: the holder of `token`, and (the token asked
 * there too when set) whoever reaches `listener`. Neither: nobody.
 */
export interface MetricsConfig {
  token: string | undefined;
  listener: { host: string; port: number } | undefined;
}

export class ConfigError extends StartupError {}

export type StorageConfig =
  | { driver: 'local' }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      endpoint: string | undefined;
      forcePathStyle: boolean;
    };

/**
 * A provider's settings when all of its required keys are set, undefined when none is; some but
 * not all is a mistake worth stopping for.
 */
function providerSettings<K extends string, T>(
  name: string,
  required: Record<K, string | undefined>,
  build: (values: Record<K, string>) => T,
): T | undefined {
  const missing = Object.entries(required).filter(([, value]) => !value);
  if (missing.length === Object.keys(required).length) return undefined;
  if (missing.length > 0) {
    const names = missing.map(([key]) => key).join(', ');
    throw new ConfigError(`Invalid configuration:\n  ${names}: required when any ${name} setting is set`);
  }
  const unreadable = Object.entries(required).filter(
    ([key, file]) => key.endsWith('_FILE') && !isReadable(file as string),
  );
  if (unreadable.length > 0) {
    const lines = unreadable.map(([key, file]) => `  ${key}: cannot read ${file}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return build(required as Record<K, string>);
}

function isReadable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

function loadStorage(e: z.output<typeof zEnv>): StorageConfig {
  if (e.STORAGE === 'local') return { driver: 'local' };
  const s3 = providerSettings(
    'S3',
    {
      S3_BUCKET: e.S3_BUCKET,
      S3_REGION: e.S3_REGION,
      S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY,
    },
    (v) => ({
      driver: 's3' as const,
      bucket: v.S3_BUCKET,
      region: v.S3_REGION,
      accessKeyId: v.S3_ACCESS_KEY_ID,
      secretAccessKey: v.S3_SECRET_ACCESS_KEY,
      endpoint: e.S3_ENDPOINT,
      forcePathStyle: e.S3_FORCE_PATH_STYLE === '1',
    }),
  );
  if (!s3) throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when STORAGE is s3');
  return s3;
}

/** The metrics listener's interface when none is given: this machine only. */
const METRICS_HOST_DEFAULT = '127.0.0.1';

function loadMetrics(e: z.output<typeof zEnv>): MetricsConfig {
  if (e.METRICS_HOST && e.METRICS_PORT === undefined)
    throw new ConfigError('Invalid configuration:\n  METRICS_HOST: needs METRICS_PORT');
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT)
    throw new ConfigError('Invalid configuration:\n  METRICS_PORT: must differ from PORT');
  return {
    token: e.METRICS_TOKEN,
    listener:
      e.METRICS_PORT === undefined
        ? undefined
        : { host: e.METRICS_HOST ?? METRICS_HOST_DEFAULT, port: e.METRICS_PORT },
  };
}

function loadPayments(e: z.output<typeof zEnv>): PaymentsConfig {
  return {
    stripe: providerSettings(
      'Stripe',
      { STRIPE_SECRET_KEY: e.STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: e.STRIPE_WEBHOOK_SECRET },
      (v) => ({
        secretKey: v.STRIPE_SECRET_KEY,
        webhookSecret: v.STRIPE_WEBHOOK_SECRET,
        apiUrl: e.STRIPE_API_URL,
      }),
    ),
    wechat: providerSettings(
      'WeChat Pay',
      {
        WECHATPAY_APP_ID: e.WECHATPAY_APP_ID,
        WECHATPAY_MCH_ID: e.WECHATPAY_MCH_ID,
        WECHATPAY_MCH_CERT_FILE: e.WECHATPAY_MCH_CERT_FILE,
        WECHATPAY_MCH_KEY_FILE: e.WECHATPAY_MCH_KEY_FILE,
        WECHATPAY_API_V3_KEY: e.WECHATPAY_API_V3_KEY,
      },
      (v) => ({
        appId: v.WECHATPAY_APP_ID,
        mchId: v.WECHATPAY_MCH_ID,
        mchCertFile: v.WECHATPAY_MCH_CERT_FILE,
        mchKeyFile: v.WECHATPAY_MCH_KEY_FILE,
        apiV3Key: v.WECHATPAY_API_V3_KEY,
        apiUrl: e.WECHATPAY_API_URL,
      }),
    ),
    alipay: providerSettings(
      'Alipay',
      {
        ALIPAY_APP_ID: e.ALIPAY_APP_ID,
        ALIPAY_PRIVATE_KEY_FILE: e.ALIPAY_PRIVATE_KEY_FILE,
        ALIPAY_PUBLIC_KEY_FILE: e.ALIPAY_PUBLIC_KEY_FILE,
      },
      (v) => ({
        appId: v.ALIPAY_APP_ID,
        privateKeyFile: v.ALIPAY_PRIVATE_KEY_FILE,
        publicKeyFile: v.ALIPAY_PUBLIC_KEY_FILE,
        gatewayUrl: e.ALIPAY_GATEWAY_URL,
      }),
    ),
  };
}

/**
 * Extraction (and sanitising) is CPU-bound: a thread per core, since the event loop mostly waits
 * on the network and PostgreSQL, up to 4. The event loop spends about a third of a thread's CPU
 * time per page (8 vs 26 ms on the corpus), so it cannot feed many more; more clips per second
 * then come from more worker processes.
 */
export function defaultExtractPoolSize(cores: number): number {
  return Math.min(4, Math.max(1, cores));
}

/**
 * A clip job mostly waits: on the page's server, on a pool thread, on PostgreSQL. Enough jobs run
 * at once that while every pool thread is busy, the next pages are already fetched and waiting
 * (the clip bench: threads busy 83% of the time at 2 jobs per thread, 96-98% at 4, 100% at 8).
 */
export function defaultClipConcurrency(poolSize: number): number {
  return 8 * poolSize;
}

/** Reads and validates the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = zEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.OIDC_ISSUER && !e.OIDC_CLIENT_ID) {
    throw new ConfigError('Invalid configuration:\n  OIDC_CLIENT_ID: required when OIDC_ISSUER is set');
  }
  const extractPoolSize = e.EXTRACT_POOL_SIZE ?? defaultExtractPoolSize(availableParallelism());
  return {
    nodeEnv: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    databaseUrl: e.DATABASE_URL,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    region: e.REGION,
    membership: e.MEMBERSHIP === 'on',
    membershipConfig: loadMembershipConfig(e.MEMBERSHIP_CONFIG),
    operatorEmail: e.OPERATOR_EMAIL,
    payments: loadPayments(e),
    dataDir: path.resolve(e.DATA_DIR),
    storage: loadStorage(e),
    extensionMinVersion: e.EXTENSION_MIN_VERSION,
    packagesDir: PACKAGES_DIST_DIR,
    trustProxy: e.TRUST_PROXY,
    metrics: loadMetrics(e),
    fetchAllowTargets: e.FETCH_ALLOW_TARGETS,
    inlineWorkers: e.INLINE_WORKERS === '1',
    logLevel: e.LOG_LEVEL,
    jobLockMs: e.JOB_LOCK_MS,
    extractTimeoutMs: e.EXTRACT_TIMEOUT_MS,
    clipConcurrency: e.CLIP_CONCURRENCY ?? defaultClipConcurrency(extractPoolSize),
    extractPoolSize,
    computePoolSize: e.COMPUTE_POOL_SIZE ?? defaultExtractPoolSize(availableParallelism()),
    flomoApiOrigin: new URL(e.FLOMO_API_ORIGIN).origin,
    workflowyApiOrigin: new URL(e.WORKFLOWY_API_ORIGIN).origin,
    pushDebounceMs: e.PUSH_DEBOUNCE_MS,
    pushRetryDelayMs: e.PUSH_RETRY_DELAY_MS,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID
        ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET }
        : undefined,
  };
}
