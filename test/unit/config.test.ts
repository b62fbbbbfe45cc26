import fs from 'node:fs';
import os, { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  ConfigError,
  defaultClipConcurrency,
  defaultExtractPoolSize,
  loadConfig,
} from '../../server/config.ts';
import { paymentProviders } from '../../server/domain/membership/providers/index.ts';
import { StartupError } from '../../server/lifecycle.ts';
import { DEFAULT_MEMBERSHIP_CONFIG } from '../../server/membership-config.ts';

describe('configuration', () => {
  test('defaults need no environment at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      region: 'us',
      redisUrl: 'redis://127.0.0.1:6379',
      databaseUrl: undefined,
    });
  });

  test('a bad variable fails start-up with a message naming it', () => {
    expect(() => loadConfig({ PORT: 'eighty', REGION: 'mars' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', REGION: 'mars' });
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/REGION/);
    }
  });

  test('a malformed DATABASE_URL is named', () => {
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
  });

  test('empty settings count as unset (compose passes an unset variable as "")', () => {
    const config = loadConfig({
      OIDC_ISSUER: 'https://id.example.test',
      OIDC_CLIENT_ID: 'margin',
      OIDC_CLIENT_SECRET: '',
      SMTP_URL: '',
    });
    expect(config.oidc).toEqual({
      issuer: 'https://id.example.test',
      clientId: 'margin',
      clientSecret: undefined,
    });
    expect(config.smtpUrl).toBeUndefined();
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.test', OIDC_CLIENT_ID: '' })).toThrow(
      /OIDC_CLIENT_ID/,
    );
  });

  test('lists are split on commas', () => {
    expect(loadConfig({ FETCH_ALLOW_TARGETS: '127.0.0.1:8080, localhost:9000' }).fetchAllowTargets).toEqual([
      '127.0.0.1:8080',
      'localhost:9000',
    ]);
  });

  test('TRUST_PROXY: no proxy is trusted unless one is configured', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  test('TRUST_PROXY takes what Express takes: names, addresses, CIDR ranges, hop counts, true', () => {
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toEqual(['10.0.0.0/8']);
    expect(
      loadConfig({ TRUST_PROXY: 'loopback, uniquelocal, 192.0.2.7, fd00::/8, 10.0.0.0/255.0.0.0' })
        .trustProxy,
    ).toEqual(['loopback', 'uniquelocal', '192.0.2.7', 'fd00::/8', '10.0.0.0/255.0.0.0']);
  });

  test('a TRUST_PROXY Express would not understand fails start-up, naming the bad entry', () => {
    for (const bad of ['yes', 'loopback,proxy.example', '10.0.0.0/33', '10.0.0.1/8/8', '::1/129']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'loopback,proxy.example' })).toThrow(/proxy\.example/);
  });

  test('metrics: closed by default; a token, a listener of their own (on loopback unless told), or both', () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined, listener: undefined });
    expect(loadConfig({ METRICS_TOKEN: '', METRICS_PORT: '', METRICS_HOST: '' }).metrics).toEqual({
      token: undefined,
      listener: undefined,
    });
    const token = 'k3y-for-the-prometheus-scraper';
    expect(loadConfig({ METRICS_TOKEN: token }).metrics).toEqual({ token, listener: undefined });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics.listener).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(
      loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: token }).metrics,
    ).toEqual({
      token,
      listener: { host: '0.0.0.0', port: 9464 },
    });
  });

  test('a metrics setting that cannot work fails start-up, naming it', () => {
    for (const bad of ['short', 'twenty-four chars but spaced', 'ünïcode-ünïcode-ünïcode-ü']) {
      expect(() => loadConfig({ METRICS_TOKEN: bad }), bad).toThrow(/METRICS_TOKEN/);
    }
    for (const bad of ['0', '65536', 'http', '9464.5']) {
      expect(() => loadConfig({ METRICS_PORT: bad }), bad).toThrow(
        /METRICS_PORT: a whole number from 1 to 65535/,
      );
    }
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(
      /METRICS_PORT: must differ from PORT/,
    );
    expect(() => loadConfig({ METRICS_HOST: '0.0.0.0' })).toThrow(/METRICS_HOST: needs METRICS_PORT/);
  });

  test('clip workload: the pool follows the core count and the concurrency the pool, unless set', () => {
    const pool = defaultExtractPoolSize(availableParallelism());
    expect(loadConfig({})).toMatchObject({
      extractPoolSize: pool,
      clipConcurrency: defaultClipConcurrency(pool),
    });
    expect(loadConfig({ CLIP_CONCURRENCY: '', EXTRACT_POOL_SIZE: '' }).extractPoolSize).toBe(pool);
    expect(loadConfig({ EXTRACT_POOL_SIZE: '3' })).toMatchObject({
      extractPoolSize: 3,
      clipConcurrency: defaultClipConcurrency(3),
    });
    expect(loadConfig({ CLIP_CONCURRENCY: '12', EXTRACT_POOL_SIZE: '1' })).toMatchObject({
      clipConcurrency: 12,
      extractPoolSize: 1,
    });
    expect([1, 2, 4, 8, 64].map(defaultExtractPoolSize)).toEqual([1, 2, 4, 4, 4]);
    for (const size of [1, 2, 4]) expect(defaultClipConcurrency(size)).toBeGreaterThan(size);
  });

  test('a clip concurrency or pool size that is not a whole number in range fails start-up, naming it', () => {
    for (const bad of ['0', '-2', '1.5', 'four', '257']) {
      expect(() => loadConfig({ CLIP_CONCURRENCY: bad }), bad).toThrow(
        /CLIP_CONCURRENCY: a whole number from 1 to 256/,
      );
    }
    for (const bad of ['0', '2.5', 'all', '65']) {
      expect(() => loadConfig({ EXTRACT_POOL_SIZE: bad }), bad).toThrow(
        /EXTRACT_POOL_SIZE: a whole number from 1 to 64/,
      );
    }
    expect(() => loadConfig({ CLIP_CONCURRENCY: 'x', EXTRACT_POOL_SIZE: 'y' })).toThrow(ConfigError);
  });

  test('a payment provider is off until all its keys are set; some but not all, or a key file that cannot be read, stops the start', () => {
    expect(loadConfig({}).payments).toEqual({ stripe: undefined, wechat: undefined, alipay: undefined });
    expect(
      loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }).payments.stripe,
    ).toEqual({
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
      apiUrl: undefined,
    });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_WEBHOOK_SECRET: required/);
    const missingFile = path.join(os.tmpdir(), 'margin-no-such-key.pem');
    expect(() =>
      loadConfig({
        ALIPAY_APP_ID: '2021',
        ALIPAY_PRIVATE_KEY_FILE: missingFile,
        ALIPAY_PUBLIC_KEY_FILE: missingFile,
      }),
    ).toThrow(/ALIPAY_PRIVATE_KEY_FILE: cannot read/);
  });

  test('MEMBERSHIP_CONFIG replaces whole top-level parts of the plan table, and a bad one names the field', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-membership-'));
    try {
      const file = path.join(dir, 'membership.json');
      fs.writeFileSync(file, JSON.stringify({ proTipsPerDay: 5 }));
      const config = loadConfig({ MEMBERSHIP_CONFIG: file });
      expect(config.membershipConfig.proTipsPerDay).toBe(5);
      expect(config.membershipConfig.plans).toEqual(DEFAULT_MEMBERSHIP_CONFIG.plans);
      fs.writeFileSync(
        file,
        JSON.stringify({ prices: { us: { currency: 'USD', providers: ['stripe'], products: [] } } }),
      );
      expect(() => loadConfig({ MEMBERSHIP_CONFIG: file })).toThrow(/prices/);
      fs.writeFileSync(file, '{ not json');
      expect(() => loadConfig({ MEMBERSHIP_CONFIG: file })).toThrow(/cannot read/);
      // WeChat Pay and Alipay take yuan only.
      const usProducts = DEFAULT_MEMBERSHIP_CONFIG.prices.us.products;
      fs.writeFileSync(
        file,
        JSON.stringify({
          prices: {
            ...DEFAULT_MEMBERSHIP_CONFIG.prices,
            us: { currency: 'USD', providers: ['alipay'], products: usProducts },
          },
        }),
      );
      expect(() => loadConfig({ MEMBERSHIP_CONFIG: file })).toThrow(
        /prices\.us\.providers: WeChat Pay and Alipay take CNY only/,
      );
      // What no check guards cannot be taken from a level.
      const plans = DEFAULT_MEMBERSHIP_CONFIG.plans;
      fs.writeFileSync(
        file,
        JSON.stringify({
          plans: {
            ...plans,
            free: { ...plans.free, features: ['clip', 'highlights', 'library', 'pullSync'] },
          },
        }),
      );
      expect(() => loadConfig({ MEMBERSHIP_CONFIG: file })).toThrow(
        /plans\.free\.features: every level keeps/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a payment key that does not read stops the server as it starts, naming the provider', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-keys-'));
    try {
      const key = path.join(dir, 'key.pem');
      fs.writeFileSync(key, 'not a key');
      const config = loadConfig({
        ALIPAY_APP_ID: '2021',
        ALIPAY_PRIVATE_KEY_FILE: key,
        ALIPAY_PUBLIC_KEY_FILE: key,
      });
      expect(() => paymentProviders(config.payments)).toThrow(StartupError);
      expect(() => paymentProviders(config.payments)).toThrow(/payment provider alipay/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
