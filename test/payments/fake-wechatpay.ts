// A local WeChat Pay API v3 (the parts Margin uses) with keys made for the test run: it checks the
// merchant's request signatures against the merchant certificate, hands out its platform
// certificate encrypted with the APIv3 key, answers signed with the platform key, keeps the Native
// orders it was given and sends Margin signed, encrypted notifications about them. Written from
// WeChat Pay's documentation, independently of Margin's own signing code.
import { execFileSync } from 'node:child_process';
import {
  createCipheriv,
  createSign,
  createVerify,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  randomUUID,
  X509Certificate,
} from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clock } from '../../server/clock.ts';
import { listenOnLoopback, readBody } from '../helpers/loopback-server.ts';

interface KeyPair {
  privateKey: KeyObject;
  certificatePem: string;
  serial: string;
  keyFile: string;
  certFile: string;
}

/** An RSA key and a self-signed certificate for it with the given serial (openssl writes the certificate). */
function keyPair(dir: string, name: string): KeyPair {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyFile = join(dir, `${name}_key.pem`);
  const certFile = join(dir, `${name}_cert.pem`);
  writeFileSync(keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }));
  // 20 bytes like WeChat Pay's serials, positive and without a leading zero.
  const serial = `5A${randomBytes(19).toString('hex').toUpperCase()}`;
  execFileSync('openssl', [
    'req',
    '-x509',
    '-new',
    '-key',
    keyFile,
    '-out',
    certFile,
    '-days',
    '3650',
    '-subj',
    `/CN=${name}`,
    '-set_serial',
    `0x${serial}`,
  ]);
  const certificatePem = execFileSync('openssl', ['x509', '-in', certFile]).toString();
  return {
    privateKey,
    certificatePem,
    serial: new X509Certificate(certificatePem).serialNumber.toUpperCase(),
    keyFile,
    certFile,
  };
}

const signed = (parts: string[]) => parts.map((part) => `${part}\n`).join('');

function signWith(key: KeyObject, parts: string[]): string {
  return createSign('RSA-SHA256').update(signed(parts)).sign(key, 'base64');
}

function encrypt(apiV3Key: string, plaintext: string, associatedData: string) {
  const nonce = randomBytes(6).toString('hex');
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key), Buffer.from(nonce));
  cipher.setAAD(Buffer.from(associatedData));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return {
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext: ciphertext.toString('base64'),
    associated_data: associatedData,
    nonce,
  };
}

const seconds = (at: Date) => String(Math.floor(at.getTime() / 1000));

/** A Native order as the fake holds it (from the merchant's POST /v3/pay/transactions/native). */
export interface FakeWechatOrder {
  appid: string;
  mchid: string;
  description: string;
  outTradeNo: string;
  notifyUrl: string;
  total: number;
  currency: string;
  timeExpire: string | undefined;
  codeUrl: string;
}

export type WechatEvent = 'paid' | 'refunded' | 'closed';

export interface NotificationOptions {
  /** The amount the notification reports (the payment's total, or the refund). */
  amount?: number;
  /** Signed with this key instead of the platform key (a forger's). */
  signer?: KeyObject;
  /** The Wechatpay-Serial header (a certificate WeChat Pay never issued). */
  serial?: string;
  /** One byte of the ciphertext changed before signing: the signature holds, the decryption fails. */
  tamperCiphertext?: boolean;
  /** The signature's time. */
  at?: Date;
}

export interface WechatNotification {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface FakeWechatPay {
  url: string;
  /** The WECHATPAY_* settings that point Margin at this server. */
  env: Record<string, string>;
  orders: Map<string, FakeWechatOrder>;
  /** Every call Margin made: whether its signature held, and the answer's status. */
  calls: { method: string; path: string; signed: boolean; status: number }[];
  /** A signed, encrypted notification about an order the fake holds, as WeChat Pay would post it. */
  notification(orderId: string, event: WechatEvent, options?: NotificationOptions): WechatNotification;
  /** Posts a notification to Margin: its answer. */
  deliver(notification: WechatNotification): Promise<{ status: number; body: string }>;
  /** A key WeChat Pay never issued, for forgeries. */
  forgerKey: KeyObject;
  /** While true, the API's answers are signed with the forger's key (a server posing as WeChat Pay). */
  forgeAnswers: boolean;
  close(): Promise<void>;
}

export async function startFakeWechatPay(): Promise<FakeWechatPay> {
  const dir = mkdtempSync(join(tmpdir(), 'margin-wechatpay-'));
  const merchant = keyPair(dir, 'apiclient');
  const platform = keyPair(dir, 'wechatpay');
  const forgerKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const merchantKey = new X509Certificate(merchant.certificatePem).publicKey;
  const appId = `wx${randomBytes(8).toString('hex')}`;
  const mchId = '1900000109';
  const apiV3Key = randomBytes(16).toString('hex');
  const orders = new Map<string, FakeWechatOrder>();
  const calls: FakeWechatPay['calls'] = [];

  /** The merchant's Authorization header checked as WeChat Pay does. */
  function requestSigned(req: IncomingMessage, body: string): boolean {
    const header = req.headers.authorization ?? '';
    const match = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(header);
    if (!match) return false;
    const fields = Object.fromEntries(
      [...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((field) => [field[1], field[2]] as const),
    );
    const { mchid, nonce_str, signature, timestamp, serial_no } = fields;
    if (mchid !== mchId || serial_no !== merchant.serial || !nonce_str || !signature || !timestamp)
      return false;
    if (Math.abs(Number(timestamp) * 1000 - clock.now().getTime()) > 5 * 60_000) return false;
    return createVerify('RSA-SHA256')
      .update(signed([req.method ?? '', req.url ?? '', timestamp, nonce_str, body]))
      .verify(merchantKey, signature, 'base64');
  }

  function answer(res: ServerResponse, status: number, payload: unknown) {
    const body = JSON.stringify(payload);
    const timestamp = seconds(clock.now());
    const nonce = randomBytes(16).toString('hex');
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Wechatpay-Timestamp': timestamp,
      'Wechatpay-Nonce': nonce,
      'Wechatpay-Serial': platform.serial,
      'Wechatpay-Signature': signWith(fake.forgeAnswers ? forgerKey : platform.privateKey, [
        timestamp,
        nonce,
        body,
      ]),
    });
    res.end(body);
  }

  function nativeOrder(body: string): FakeWechatOrder | string {
    const input = JSON.parse(body) as Record<string, unknown>;
    const amount = input.amount as { total?: unknown; currency?: unknown } | undefined;
    if (input.appid !== appId || input.mchid !== mchId) return 'appid or mchid';
    if (typeof input.description !== 'string' || Buffer.byteLength(input.description) > 127)
      return 'description';
    if (typeof input.out_trade_no !== 'string' || !/^[\w*|-]{6,32}$/.test(input.out_trade_no))
      return 'out_trade_no';
    if (typeof input.notify_url !== 'string' || !URL.canParse(input.notify_url)) return 'notify_url';
    if (!amount || !Number.isInteger(amount.total) || (amount.total as number) < 1) return 'amount.total';
    if (amount.currency !== undefined && amount.currency !== 'CNY') return 'amount.currency';
    return {
      appid: input.appid,
      mchid: input.mchid,
      description: input.description,
      outTradeNo: input.out_trade_no,
      notifyUrl: input.notify_url,
      total: amount.total as number,
      currency: 'CNY',
      timeExpire: typeof input.time_expire === 'string' ? input.time_expire : undefined,
      codeUrl: `weixin://wxpay/bizpayurl?pr=${randomBytes(5).toString('hex')}`,
    };
  }

  function handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const path = (req.url ?? '').split('?')[0];
    const ok = requestSigned(req, body);
    const reply = (status: number, payload: unknown) => {
      calls.push({ method: req.method ?? '', path: path ?? '', signed: ok, status });
      answer(res, status, payload);
    };
    if (!ok) return reply(401, { code: 'SIGN_ERROR', message: '签名错误' });
    if (req.method === 'GET' && path === '/v3/certificates')
      return reply(200, {
        data: [
          {
            serial_no: platform.serial,
            effective_time: '2026-01-01T00:00:00+08:00',
            expire_time: '2031-01-01T00:00:00+08:00',
            encrypt_certificate: encrypt(apiV3Key, platform.certificatePem, 'certificate'),
          },
        ],
      });
    if (req.method === 'POST' && path === '/v3/pay/transactions/native') {
      const order = nativeOrder(body);
      if (typeof order === 'string') return reply(400, { code: 'PARAM_ERROR', message: order });
      if (orders.has(order.outTradeNo))
        return reply(400, { code: 'OUT_TRADE_NO_USED', message: '商户订单号重复' });
      orders.set(order.outTradeNo, order);
      return reply(200, { code_url: order.codeUrl });
    }
    reply(404, { code: 'NOT_FOUND', message: 'no such API' });
  }

  const listening = await listenOnLoopback(
    createServer(async (req, res) => handle(req, res, await readBody(req))),
  );
  const { url } = listening;

  function resourceOf(order: FakeWechatOrder, event: WechatEvent, amount: number | undefined) {
    const transactionId = `42000${order.outTradeNo.length}${randomBytes(8).toString('hex')}`;
    const common = { mchid: order.mchid, out_trade_no: order.outTradeNo, transaction_id: transactionId };
    if (event === 'refunded')
      return {
        eventType: 'REFUND.SUCCESS',
        originalType: 'refund',
        resource: {
          ...common,
          out_refund_no: `rf${randomBytes(6).toString('hex')}`,
          refund_id: `50000${randomBytes(8).toString('hex')}`,
          refund_status: 'SUCCESS',
          success_time: '2026-03-14T18:00:00+08:00',
          user_received_account: '支付用户零钱',
          amount: {
            total: order.total,
            refund: amount ?? order.total,
            payer_total: order.total,
            payer_refund: amount ?? order.total,
          },
        },
      };
    const paid = event === 'paid';
    return {
      eventType: paid ? 'TRANSACTION.SUCCESS' : 'TRANSACTION.CLOSED',
      originalType: 'transaction',
      resource: {
        ...common,
        appid: order.appid,
        trade_type: 'NATIVE',
        trade_state: paid ? 'SUCCESS' : 'CLOSED',
        trade_state_desc: paid ? '支付成功' : '已关闭',
        bank_type: 'OTHERS',
        attach: '',
        success_time: '2026-03-14T17:40:00+08:00',
        payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
        amount: {
          total: amount ?? order.total,
          payer_total: amount ?? order.total,
          currency: 'CNY',
          payer_currency: 'CNY',
        },
      },
    };
  }

  const fake: FakeWechatPay = {
    url,
    env: {
      WECHATPAY_APP_ID: appId,
      WECHATPAY_MCH_ID: mchId,
      WECHATPAY_MCH_CERT_FILE: merchant.certFile,
      WECHATPAY_MCH_KEY_FILE: merchant.keyFile,
      WECHATPAY_API_V3_KEY: apiV3Key,
      WECHATPAY_API_URL: url,
    },
    orders,
    calls,
    forgerKey,
    forgeAnswers: false,

    notification(orderId, event, options = {}) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`the fake holds no order ${orderId}`);
      const { eventType, originalType, resource } = resourceOf(order, event, options.amount);
      const encrypted = encrypt(apiV3Key, JSON.stringify(resource), originalType);
      if (options.tamperCiphertext) {
        const bytes = Buffer.from(encrypted.ciphertext, 'base64');
        bytes[3] = (bytes[3] ?? 0) ^ 0x01;
        encrypted.ciphertext = bytes.toString('base64');
      }
      const body = JSON.stringify({
        id: randomUUID(),
        create_time: '2026-03-14T17:40:01+08:00',
        resource_type: 'encrypt-resource',
        event_type: eventType,
        summary: eventType,
        resource: { original_type: originalType, ...encrypted },
      });
      const timestamp = seconds(options.at ?? clock.now());
      const nonce = randomBytes(16).toString('hex');
      return {
        url: order.notifyUrl,
        body,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Mozilla/4.0',
          'Wechatpay-Timestamp': timestamp,
          'Wechatpay-Nonce': nonce,
          'Wechatpay-Serial': options.serial ?? platform.serial,
          'Wechatpay-Signature-Type': 'WECHATPAY2-SHA256-RSA2048',
          'Wechatpay-Signature': signWith(options.signer ?? platform.privateKey, [timestamp, nonce, body]),
        },
      };
    },

    async deliver(notification) {
      const res = await fetch(notification.url, {
        method: 'POST',
        headers: notification.headers,
        body: notification.body,
      });
      return { status: res.status, body: await res.text() };
    },

    async close() {
      await listening.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return fake;
}
