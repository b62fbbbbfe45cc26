import type { Checkout, Currency, PaymentProviderId } from '../../../../src/schemas/membership.ts';

/** What a provider needs to start a payment for an order. */
export interface CheckoutRequest {
  orderId: string;
  /** Minor units. */
  amount: number;
  currency: Currency;
  /** Shown to the buyer on the provider's page or in their payment app. */
  description: string;
  /** Where the provider posts its notifications: `${origin}/pay/notify/<provider>`. */
  notifyUrl: string;
  /** Where the buyer comes back to after paying (or cancelling) on a provider's page. */
  returnUrl: string;
  /** When the order closes unpaid: the provider's page or code must not outlive it. */
  closesAt: Date;
  /** The buyer's email, when the provider's page can fill it in. */
  email: string | null;
}

/**
 * What a verified notification says about an order. `paid` and `refunded` carry the amount the
 * provider reports, which must match the order's (a mismatch grants nothing).
 */
export type PaymentNotice =
  | { type: 'paid'; orderId: string; amount: number; currency: string; providerRef: string }
  | { type: 'refunded'; orderId: string; amount: number; currency: string; providerRef?: string }
  | { type: 'closed'; orderId: string }
  /** Verified, but not about an order state (an event type Margin does not act on). */
  | { type: 'ignored' };

/** An HTTP answer the provider expects back (its own acknowledgement format). */
export interface ProviderAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** A notification whose signature (or decryption) fails: refused, nothing changes. */
export class PaymentSignatureError extends Error {
  constructor(message = 'payment notification signature refused') {
    super(message);
    this.name = 'PaymentSignatureError';
  }
}

/**
 * One payment provider, built from its settings through its own SDK. Every method that talks to
 * the provider goes to the URL its settings name (the real API, or a local server in tests).
 */
export interface PaymentProvider {
  readonly id: PaymentProviderId;
  /** Creates the provider's payment for the order: a page to send the buyer to, or a QR code. */
  startCheckout(request: CheckoutRequest): Promise<Checkout>;
  /**
   * Verifies a notification (signature, and decryption where the provider encrypts) and reads
   * it. Throws PaymentSignatureError when it is not genuine.
   */
  readNotification(request: {
    headers: Record<string, string | string[] | undefined>;
    rawBody: Buffer;
  }): Promise<PaymentNotice>;
  /** The answer telling the provider the notification was taken (so it stops retrying). */
  accepted(): ProviderAnswer;
  /** The answer telling the provider it was not (it retries later). */
  refused(): ProviderAnswer;
}
