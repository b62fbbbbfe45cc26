import Stripe from 'stripe';
import { clock } from '../../../clock.ts';
import type { PaymentsConfig } from '../../../config.ts';
import {
  type CheckoutRequest,
  type PaymentNotice,
  type PaymentProvider,
  PaymentSignatureError,
  type ProviderAnswer,
} from './types.ts';

// Stripe: a hosted Checkout Session per order, and the webhook events (signed with the endpoint's
// secret) that move it: the session completed and paid, expired, or its charge fully refunded.

export type StripeSettings = NonNullable<PaymentsConfig['stripe']>;

/** SDK options that send every call to `apiUrl` instead of api.stripe.com (a local server in tests). */
function apiAddress(apiUrl: string | undefined): Stripe.StripeConfig {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

/** The order id Margin put on what it created (sessions and payment intents); absent on others. */
function orderIdOf(metadata: Stripe.Metadata | null | undefined): string | undefined {
  return metadata?.orderId || undefined;
}

/** The order a Checkout Session was made for. */
function sessionOrderId(session: Stripe.Checkout.Session): string | undefined {
  return session.client_reference_id || orderIdOf(session.metadata);
}

function idOf(ref: string | { id: string } | null): string | null {
  return typeof ref === 'string' ? ref : (ref?.id ?? null);
}

function paidNotice(session: Stripe.Checkout.Session): PaymentNotice {
  const orderId = sessionOrderId(session);
  // 'unpaid': a delayed method (a bank debit) still under way; async_payment_succeeded follows.
  if (!orderId || session.payment_status !== 'paid') return { type: 'ignored' };
  return {
    type: 'paid',
    orderId,
    amount: session.amount_total ?? 0,
    currency: session.currency ?? '',
    providerRef: idOf(session.payment_intent) ?? session.id,
  };
}

/** How far a signature's time may lie from Margin's clock, in the past (a replay) or the future. */
const SIGNATURE_TOLERANCE_S = 300;

/**
 * The time in the `t=` of a `Stripe-Signature` header, in seconds. The SDK has already verified
 * it is the one signed, but bounds only its age: a time ahead of the clock passes it.
 */
function signedAtSeconds(header: string): number {
  const match = header.match(/(?:^|,)\s*t=(\d{1,12})\s*(?:,|$)/);
  return match ? Number(match[1]) : Number.NaN;
}

function answer(status: number, body: object): ProviderAnswer {
  return { status, contentType: 'application/json', body: JSON.stringify(body) };
}

export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const stripe = new Stripe(settings.secretKey, { telemetry: false, ...apiAddress(settings.apiUrl) });

  /** The order Margin's session named on the payment intent (fetched: webhook payloads are not expanded). */
  async function intentOrderId(intent: Stripe.Charge['payment_intent']): Promise<string | undefined> {
    if (!intent) return undefined;
    return orderIdOf(
      typeof intent === 'string' ? (await stripe.paymentIntents.retrieve(intent)).metadata : intent.metadata,
    );
  }

  /** A fully refunded charge of an order's payment (a partial refund leaves the order as it is). */
  async function refundNotice(charge: Stripe.Charge): Promise<PaymentNotice> {
    if (charge.amount_refunded !== charge.amount) return { type: 'ignored' };
    // Stripe copies the payment intent's metadata onto the charge once, when it is confirmed; a
    // charge whose metadata was edited since is traced through its payment intent.
    const orderId = orderIdOf(charge.metadata) ?? (await intentOrderId(charge.payment_intent));
    if (!orderId) return { type: 'ignored' };
    return {
      type: 'refunded',
      orderId,
      amount: charge.amount_refunded,
      currency: charge.currency,
      providerRef: idOf(charge.payment_intent) ?? charge.id,
    };
  }

  return {
    id: 'stripe',

    async startCheckout(request: CheckoutRequest) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency.toLowerCase(),
                unit_amount: request.amount,
                product_data: { name: request.description },
              },
            },
          ],
          client_reference_id: request.orderId,
          metadata: { orderId: request.orderId },
          payment_intent_data: { metadata: { orderId: request.orderId } },
          success_url: request.returnUrl,
          cancel_url: request.returnUrl,
          ...(request.email ? { customer_email: request.email } : {}),
          // The page must not outlive the order: a payment after the order closed grants nothing.
          expires_at: Math.floor(request.closesAt.getTime() / 1000),
        },
        // A retried call gives back the same session, not a second one.
        { idempotencyKey: `checkout-${request.orderId}` },
      );
      if (!session.url) throw new Error(`Stripe Checkout Session ${session.id} has no url`);
      return { kind: 'redirect', url: session.url };
    },

    async readNotification({ headers, rawBody }) {
      let event: Stripe.Event;
      const given = headers['stripe-signature'];
      const signature = Array.isArray(given) ? (given[0] ?? '') : (given ?? '');
      const now = clock.now().getTime();
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature,
          settings.webhookSecret,
          SIGNATURE_TOLERANCE_S,
          undefined,
          now,
        );
      } catch (error) {
        throw new PaymentSignatureError(`Stripe webhook refused: ${(error as Error).message}`);
      }
      // Signed more than the tolerance ahead of Margin's clock: as suspect as a replay.
      if (!(Math.abs(now / 1000 - signedAtSeconds(signature)) <= SIGNATURE_TOLERANCE_S)) {
        throw new PaymentSignatureError('Stripe webhook refused: signed too far from now');
      }
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
          return paidNotice(event.data.object);
        case 'checkout.session.expired': {
          const orderId = sessionOrderId(event.data.object);
          return orderId ? { type: 'closed', orderId } : { type: 'ignored' };
        }
        case 'charge.refunded':
          return refundNotice(event.data.object);
        default:
          return { type: 'ignored' };
      }
    },

    accepted: () => answer(200, { received: true }),
    refused: () => answer(400, { received: false }),
  };
}
