import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AlipaySdk } from 'alipay-sdk';
import { clock } from '../../../clock.ts';
import type { PaymentsConfig } from '../../../config.ts';
import {
  type CheckoutRequest,
  type PaymentNotice,
  type PaymentProvider,
  PaymentSignatureError,
  type ProviderAnswer,
} from './types.ts';

// Alipay (OpenAPI 2.0, public-key mode, RSA2): a QR code from alipay.trade.precreate, and the
// asynchronous trade notifications (form posts signed with Alipay's key) that move the order.

export type AlipaySettings = NonNullable<PaymentsConfig['alipay']>;

/** Alipay answers `10000` for a call that did what was asked. */
const ALIPAY_SUCCESS = '10000';

/**
 * A key file as Alipay's key tool or openssl writes it: PEM (PKCS#1 or PKCS#8, SPKI or a
 * certificate for the public key), or the bare base64 of the DER the key tool shows. The SDK
 * takes exactly one PEM form per key, so every form is turned into that one.
 */
function readKey(file: string, kind: 'private' | 'public'): string {
  const text = readFileSync(file, 'utf8').trim();
  const der = Buffer.from(text.replace(/\s+/g, ''), 'base64');
  const readings: (() => KeyObject)[] = text.startsWith('-----BEGIN')
    ? [() => (kind === 'private' ? createPrivateKey(text) : createPublicKey(text))]
    : kind === 'private'
      ? [
          () => createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }),
          () => createPrivateKey({ key: der, format: 'der', type: 'pkcs1' }),
        ]
      : [
          () => createPublicKey({ key: der, format: 'der', type: 'spki' }),
          () => createPublicKey({ key: der, format: 'der', type: 'pkcs1' }),
        ];
  for (const read of readings) {
    let key: KeyObject;
    try {
      key = read();
    } catch {
      continue;
    }
    if (key.asymmetricKeyType !== 'rsa') break;
    return key.export({ format: 'pem', type: kind === 'private' ? 'pkcs8' : 'spki' }).toString();
  }
  throw new Error(`${file}: not an RSA ${kind} key`);
}

/** Fen to Alipay's amount: yuan with two decimals, as a string. */
function yuan(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** Alipay's amount (yuan, up to two decimals) in fen; no float arithmetic on money. */
function fen(amount: string | undefined): number {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(amount ?? '');
  if (!match) throw new Error(`unreadable Alipay amount: ${amount}`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** How far ahead of Margin's clock a notification may say it was sent (the two clocks' skew). */
const NOTIFY_AHEAD_MS = 5 * 60_000;
/**
 * How long ago: Alipay repeats an unanswered notification for about 25 hours (2 min, 10 min, 10
 * min, 1 h, 2 h, 6 h, 15 h), and a repeat may keep the first one's time. A replay inside it
 * grants nothing twice (an order moves once); one from later is refused.
 */
const NOTIFY_BEHIND_MS = 26 * 3_600_000;

/** `notify_time` ("yyyy-MM-dd HH:mm:ss", China time) in epoch milliseconds; NaN when unreadable. */
function notifyTimeMs(text: string | undefined): number {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(text ?? '');
  return match ? Date.parse(`${match[1]}T${match[2]}+08:00`) : Number.NaN;
}

/** Whether a notification's signed time lies within the bounds around now. */
function sentRecently(fields: Record<string, string>, now: Date): boolean {
  const age = now.getTime() - notifyTimeMs(fields.notify_time);
  return age >= -NOTIFY_AHEAD_MS && age <= NOTIFY_BEHIND_MS;
}

/** What a verified trade notification says (the fields are Alipay's trade_status_sync ones). */
function noticeOf(fields: Record<string, string>): PaymentNotice {
  const orderId = fields.out_trade_no;
  if (!orderId) return { type: 'ignored' };
  const status = fields.trade_status;
  const providerRef = fields.trade_no;
  // A refund (partial: the trade stays TRADE_SUCCESS; full: TRADE_CLOSED) carries refund_fee,
  // the amount refunded so far. Only a full refund takes the order's days back.
  if (fields.refund_fee !== undefined || fields.gmt_refund !== undefined) {
    const total = fen(fields.total_amount);
    const refunded = fen(fields.refund_fee);
    return refunded === total
      ? { type: 'refunded', orderId, amount: refunded, currency: 'CNY', providerRef }
      : { type: 'ignored' };
  }
  if ((status === 'TRADE_SUCCESS' || status === 'TRADE_FINISHED') && providerRef)
    return { type: 'paid', orderId, amount: fen(fields.total_amount), currency: 'CNY', providerRef };
  if (status === 'TRADE_CLOSED') return { type: 'closed', orderId };
  return { type: 'ignored' };
}

/** Alipay reads the body: anything but `success` and it notifies again later. */
function answer(status: number, body: 'success' | 'failure'): ProviderAnswer {
  return { status, contentType: 'text/plain', body };
}

export function alipayProvider(settings: AlipaySettings): PaymentProvider {
  const sdk = new AlipaySdk({
    appId: settings.appId,
    keyType: 'PKCS8',
    privateKey: readKey(settings.privateKeyFile, 'private'),
    alipayPublicKey: readKey(settings.publicKeyFile, 'public'),
    signType: 'RSA2',
    ...(settings.gatewayUrl ? { gateway: settings.gatewayUrl } : {}),
  });

  return {
    id: 'alipay',

    async startCheckout(request: CheckoutRequest) {
      const result = await sdk.exec(
        'alipay.trade.precreate',
        {
          notify_url: request.notifyUrl,
          bizContent: {
            out_trade_no: request.orderId,
            total_amount: yuan(request.amount),
            subject: request.description,
            // The code must not outlive the order: a payment after the order closed grants nothing.
            timeout_express: `${Math.max(1, Math.round((request.closesAt.getTime() - clock.now().getTime()) / 60_000))}m`,
          },
        },
        // The SDK checks the answer's signature only when asked.
        { validateSign: true },
      );
      if (result.code !== ALIPAY_SUCCESS || typeof result.qrCode !== 'string' || !result.qrCode)
        throw new Error(`alipay.trade.precreate: ${result.code} ${result.subCode ?? result.msg}`);
      return { kind: 'qr', codeUrl: result.qrCode };
    },

    async readNotification({ rawBody }) {
      const fields = Object.fromEntries(new URLSearchParams(rawBody.toString('utf8')));
      // V2 verifies the values as posted (already form-decoded), not decoded a second time.
      if (fields.sign_type !== undefined && fields.sign_type !== 'RSA2') throw new PaymentSignatureError();
      if (!sdk.checkNotifySignV2(fields)) throw new PaymentSignatureError();
      if (fields.app_id !== settings.appId)
        throw new PaymentSignatureError('Alipay notification for another app');
      if (!sentRecently(fields, clock.now()))
        throw new PaymentSignatureError('Alipay notification sent too far from now');
      return noticeOf(fields);
    },

    accepted: () => answer(200, 'success'),
    refused: () => answer(400, 'failure'),
  };
}
