import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { PaymentsConfig } from '../../../config.ts';
import {
  type CheckoutRequest,
  type PaymentNotice,
  type PaymentProvider,
  PaymentSignatureError,
  type ProviderAnswer,
} from './types.ts';
import { serialOf, signedMessageOf, WechatPayApi, zEncrypted } from './wechat-v3.ts';

// WeChat Pay API v3, Native payment: a QR code (code_url) from POST /v3/pay/transactions/native,
// and the signed, encrypted notifications (payment, refund) that move the order.
//
// Why the official scheme on node:crypto (./wechat-v3.ts) and not wechatpay-node-v3 (2.2.1):
// that package writes https://api.mch.weixin.qq.com into every call, so it could reach a local
// server only through a URL-rewriting HTTP service; it keeps the platform certificates in a
// static map shared by every instance; it checks no timestamp on notifications and verifies no
// answer. The scheme itself is a few dozen lines of RSA-SHA256 and AES-256-GCM.

export type WechatSettings = NonNullable<PaymentsConfig['wechat']>;

const DEFAULT_API_URL = 'https://api.mch.weixin.qq.com';

/** WeChat Pay's limit on `description`, in bytes. */
const DESCRIPTION_MAX_BYTES = 127;

/** The merchant's key and the serial of its API certificate (apiclient_key.pem, apiclient_cert.pem). */
function readMerchant(settings: WechatSettings) {
  const privateKey = createPrivateKey(readFileSync(settings.mchKeyFile));
  if (privateKey.asymmetricKeyType !== 'rsa')
    throw new Error(`${settings.mchKeyFile}: not an RSA private key`);
  const certificate = new X509Certificate(readFileSync(settings.mchCertFile));
  if (!certificate.checkPrivateKey(privateKey))
    throw new Error(`${settings.mchCertFile}: not the certificate of ${settings.mchKeyFile}`);
  return { mchId: settings.mchId, serialNo: serialOf(certificate), privateKey };
}

/** The text cut to `max` UTF-8 bytes without splitting a character. */
function truncateBytes(text: string, max: number): string {
  let out = '';
  let bytes = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > max) break;
    out += char;
  }
  return out;
}

/** RFC 3339 in China time, as WeChat Pay writes and reads times. */
function chinaTime(at: Date): string {
  return `${new Date(at.getTime() + 8 * 60 * 60_000).toISOString().slice(0, 19)}+08:00`;
}

const zNativeAnswer = z.object({ code_url: z.string().min(1).max(2048) });

const zNotification = z.object({
  id: z.string().max(100),
  event_type: z.string().max(100),
  resource_type: z.string().max(100).optional(),
  resource: zEncrypted,
});

const zTransaction = z.object({
  appid: z.string().max(64),
  mchid: z.string().max(64),
  out_trade_no: z.string().max(64),
  transaction_id: z.string().max(64).optional(),
  trade_state: z.string().max(32),
  amount: z.object({ total: z.number().int(), currency: z.string().max(16).default('CNY') }).optional(),
});

const zRefund = z.object({
  mchid: z.string().max(64),
  out_trade_no: z.string().max(64),
  refund_id: z.string().max(64),
  refund_status: z.string().max(32),
  amount: z.object({ total: z.number().int(), refund: z.number().int() }),
});

/** What a verified, decrypted notification says about its order. */
function noticeOf(settings: WechatSettings, eventType: string, plaintext: string): PaymentNotice {
  const data: unknown = JSON.parse(plaintext);
  if (eventType.startsWith('TRANSACTION.')) {
    const transaction = zTransaction.parse(data);
    if (transaction.mchid !== settings.mchId || transaction.appid !== settings.appId)
      throw new PaymentSignatureError('WeChat Pay notification for another merchant');
    const orderId = transaction.out_trade_no;
    if (
      eventType === 'TRANSACTION.SUCCESS' &&
      transaction.trade_state === 'SUCCESS' &&
      transaction.transaction_id &&
      transaction.amount
    )
      return {
        type: 'paid',
        orderId,
        amount: transaction.amount.total,
        currency: transaction.amount.currency,
        providerRef: transaction.transaction_id,
      };
    if (transaction.trade_state === 'CLOSED') return { type: 'closed', orderId };
    return { type: 'ignored' };
  }
  if (eventType === 'REFUND.SUCCESS') {
    const refund = zRefund.parse(data);
    if (refund.mchid !== settings.mchId)
      throw new PaymentSignatureError('WeChat Pay notification for another merchant');
    // Only a full refund takes the order's days back; WeChat Pay refunds in the order's currency,
    // which a Native payment has only one of.
    if (refund.refund_status !== 'SUCCESS' || refund.amount.refund !== refund.amount.total)
      return { type: 'ignored' };
    return {
      type: 'refunded',
      orderId: refund.out_trade_no,
      amount: refund.amount.refund,
      currency: 'CNY',
      providerRef: refund.refund_id,
    };
  }
  return { type: 'ignored' };
}

/** WeChat Pay takes a 2xx with no body; anything else, with its code and message, it retries. */
const ACCEPTED: ProviderAnswer = { status: 200, contentType: 'text/plain', body: '' };
const REFUSED: ProviderAnswer = {
  status: 400,
  contentType: 'application/json',
  body: JSON.stringify({ code: 'FAIL', message: 'notification not taken' }),
};

export function wechatProvider(settings: WechatSettings): PaymentProvider {
  const api = new WechatPayApi({
    apiUrl: settings.apiUrl ?? DEFAULT_API_URL,
    apiV3Key: settings.apiV3Key,
    merchant: readMerchant(settings),
  });

  return {
    id: 'wechat',

    async startCheckout(request: CheckoutRequest) {
      const answer = zNativeAnswer.parse(
        await api.call('POST', '/v3/pay/transactions/native', {
          appid: settings.appId,
          mchid: settings.mchId,
          description: truncateBytes(request.description, DESCRIPTION_MAX_BYTES),
          out_trade_no: request.orderId,
          // The code must not outlive the order: a payment after the order closed grants nothing.
          time_expire: chinaTime(request.closesAt),
          notify_url: request.notifyUrl,
          amount: { total: request.amount, currency: 'CNY' },
        }),
      );
      return { kind: 'qr', codeUrl: answer.code_url };
    },

    async readNotification({ headers, rawBody }) {
      const message = signedMessageOf(headers, rawBody.toString('utf8'));
      if (!message || !(await api.verifyNotification(message))) throw new PaymentSignatureError();
      let eventType: string;
      let plaintext: string;
      try {
        const notification = zNotification.parse(JSON.parse(message.body));
        eventType = notification.event_type;
        plaintext = api.decrypt(notification.resource);
      } catch {
        throw new PaymentSignatureError('WeChat Pay notification not readable');
      }
      try {
        return noticeOf(settings, eventType, plaintext);
      } catch (error) {
        if (error instanceof PaymentSignatureError) throw error;
        throw new PaymentSignatureError('WeChat Pay notification resource not readable');
      }
    },

    accepted: () => ACCEPTED,
    refused: () => REFUSED,
  };
}
