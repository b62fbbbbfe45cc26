import type { PaymentProviderId } from '../../../../src/schemas/membership.ts';
import type { PaymentsConfig } from '../../../config.ts';
import { StartupError } from '../../../lifecycle.ts';
import { alipayProvider } from './alipay.ts';
import { stripeProvider } from './stripe.ts';
import type { PaymentProvider } from './types.ts';
import { wechatProvider } from './wechat.ts';

export type PaymentProviders = Partial<Record<PaymentProviderId, PaymentProvider>>;

/** Each provider module's factory from its settings (an absent setting: the provider is off). */
const FACTORIES: {
  [K in PaymentProviderId]?: (settings: NonNullable<PaymentsConfig[K]>) => PaymentProvider;
} = {
  alipay: alipayProvider,
  stripe: stripeProvider,
  wechat: wechatProvider,
};

const built = new WeakMap<PaymentsConfig, PaymentProviders>();

/**
 * The providers this install has keys for, built once per configuration: the server builds them
 * as it starts (createApp), so a bad key stops it there.
 */
export function paymentProviders(config: PaymentsConfig): PaymentProviders {
  let providers = built.get(config);
  if (!providers) {
    providers = {};
    for (const id of Object.keys(FACTORIES) as PaymentProviderId[]) {
      const settings = config[id];
      const factory = FACTORIES[id] as ((s: typeof settings) => PaymentProvider) | undefined;
      if (!settings || !factory) continue;
      try {
        providers[id] = factory(settings);
      } catch (error) {
        // A key that does not read, or a certificate not of its key: say so at start, not per order.
        throw new StartupError(`payment provider ${id}: ${(error as Error).message}`);
      }
    }
    built.set(config, providers);
  }
  return providers;
}
