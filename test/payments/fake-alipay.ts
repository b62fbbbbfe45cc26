import { createSign, createVerify, generateKeyPairSync, type KeyObject, randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { clock } from '../../server/clock.ts';
import { listenOnLoopback, readBody } from '../helpers/loopback-server.ts';

// Alipay's OpenAPI gateway on 127.0.0.1, with its own locally made RSA keys and the app's: it
// checks each call's RSA2 signature with the app's public key, answers alipay.trade.precreate
// signed with "Alipay's" private key as the SDK verifies it (the raw text of the
// `…_response` object), and posts trade notifications signed as Alipay signs them (the fields
// sorted, sign and sign_type left out, `k=v` joined with &, SHA256withRSA, base64).

export interface AlipayTrade {
  outTradeNo: string;
  tradeNo: string;
  /** Yuan, as the app sent it ("18.00"). */
  totalAmount: string;
  subject: string;
  notifyUrl: string;
  /** The app's own expiry for the code ("120m"). */
  timeoutExpress: string | undefined;
  qrCode: string;
}

/** The trade notifications Alipay sends (trade_status_sync). */
export type AlipayEvent = 'paid' | 'finished' | 'refunded' | 'partlyRefunded' | 'closed';

export interface NotifyOptions {
  /** Fields changed before signing: a genuine notification that says something else. */
  set?: Record<string, string>;
  /** Fields changed after signing: a tampered one. */
  tamper?: Record<string, string>;
  /** Signed with this key instead of Alipay's: a forged one. */
  signWith?: KeyObject;
}

/**
 * How the app's key files are written: openssl's PEM (PKCS#8 private, SPKI public), the
 * PKCS#1 PEM of older tools, or the bare base64 Alipay's key tool shows (PKCS#1 private).
 */
export type KeyFileStyle = 'pkcs8Pem' | 'pkcs1Pem' | 'bareBase64';

export interface FakeAlipay {
  /** The gateway URL, for ALIPAY_GATEWAY_URL. */
  gatewayUrl: string;
  appId: string;
  /** The app's private key and Alipay's public key in `dir`, for the ALIPAY_*_KEY_FILE settings. */
  writeKeyFiles(dir: string, style?: KeyFileStyle): { privateKeyFile: string; publicKeyFile: string };
  /** The trade precreated for an order, as the gateway recorded it. */
  trade(outTradeNo: string): AlipayTrade | undefined;
  /** The form body of a notification about a precreated trade. */
  notificationBody(outTradeNo: string, event: AlipayEvent, options?: NotifyOptions): string;
  /** Posts that notification to the trade's notify_url: Margin's answer. */
  notify(
    outTradeNo: string,
    event: AlipayEvent,
    options?: NotifyOptions,
  ): Promise<{ status: number; body: string }>;
  /** From now on, answers are signed with `key` (null: Alipay's own key again). */
  signAnswersWith(key: KeyObject | null): void;
  close(): Promise<void>;
}

export function rsaKeyPair() {
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

function rsa2Sign(content: string, key: KeyObject): string {
  return createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64');
}

/** Alipay's signing string: sorted `k=v` pairs, without the fields named, and none empty. */
function signingString(fields: Record<string, string>, without: string[]): string {
  return Object.keys(fields)
    .filter((key) => !without.includes(key) && fields[key] !== '')
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('&');
}

/** Beijing time, as Alipay writes it: "2026-03-14 17:30:00". */
export function alipayTime(at: Date): string {
  return new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

function digits(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += randomInt(10);
  return out;
}

export async function startFakeAlipay(): Promise<FakeAlipay> {
  const app = rsaKeyPair();
  const alipay = rsaKeyPair();
  const appId = `2021${digits(12)}`;
  const sellerId = `2088${digits(12)}`;
  const trades = new Map<string, AlipayTrade>();
  let answerKey: KeyObject = alipay.privateKey;

  /** `{"<method>_response":{…},"sign":"…"}`, the signature over the inner object's exact text. */
  function signedAnswer(method: string, inner: Record<string, string>): string {
    const text = JSON.stringify(inner);
    return `{"${method.replaceAll('.', '_')}_response":${text},"sign":"${rsa2Sign(text, answerKey)}"}`;
  }

  function precreate(params: Record<string, string>): Record<string, string> {
    const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string | undefined>;
    const { out_trade_no: outTradeNo, total_amount: totalAmount, subject } = biz;
    if (!outTradeNo || !totalAmount || !/^\d+\.\d{2}$/.test(totalAmount) || !subject)
      return { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.INVALID_PARAMETER', sub_msg: 'bad' };
    const trade: AlipayTrade = {
      outTradeNo,
      tradeNo: `${alipayTime(clock.now()).slice(0, 10).replaceAll('-', '')}22001${digits(17)}`,
      totalAmount,
      subject,
      notifyUrl: params.notify_url ?? '',
      timeoutExpress: biz.timeout_express,
      qrCode: `https://qr.alipay.com/bax0${digits(5)}${outTradeNo.slice(-8)}`,
    };
    trades.set(outTradeNo, trade);
    return { code: '10000', msg: 'Success', out_trade_no: outTradeNo, qr_code: trade.qrCode };
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const params: Record<string, string> = {
      ...Object.fromEntries(url.searchParams),
      ...Object.fromEntries(new URLSearchParams(await readBody(req))),
    };
    const method = params.method ?? '';
    // Calls are signed over every parameter but sign itself (sign_type included).
    const genuine =
      params.app_id === appId &&
      params.sign_type === 'RSA2' &&
      createVerify('RSA-SHA256')
        .update(signingString(params, ['sign']), 'utf8')
        .verify(app.publicKey, params.sign ?? '', 'base64');
    const inner = !genuine
      ? { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: 'bad sign' }
      : method === 'alipay.trade.precreate'
        ? precreate(params)
        : { code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-method', sub_msg: method };
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
    res.end(signedAnswer(method || 'error', inner));
  });
  const listening = await listenOnLoopback(server);

  function fieldsOf(trade: AlipayTrade, event: AlipayEvent): Record<string, string> {
    const now = alipayTime(clock.now());
    const fields: Record<string, string> = {
      notify_time: now,
      notify_type: 'trade_status_sync',
      notify_id: `2026${digits(28)}`,
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      app_id: appId,
      auth_app_id: appId,
      seller_id: sellerId,
      buyer_id: `2088${digits(12)}`,
      buyer_logon_id: 'rea***@example.test',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      subject: trade.subject,
      total_amount: trade.totalAmount,
      gmt_create: now,
    };
    const paid = {
      receipt_amount: trade.totalAmount,
      buyer_pay_amount: trade.totalAmount,
      invoice_amount: trade.totalAmount,
      point_amount: '0.00',
      fund_bill_list: JSON.stringify([{ amount: trade.totalAmount, fundChannel: 'ALIPAYACCOUNT' }]),
      gmt_payment: now,
    };
    const refund = (fee: string) => ({
      ...paid,
      refund_fee: fee,
      gmt_refund: `${now}.123`,
      out_biz_no: `rf${digits(10)}`,
    });
    switch (event) {
      case 'paid':
        return { ...fields, ...paid, trade_status: 'TRADE_SUCCESS' };
      case 'finished':
        return { ...fields, ...paid, trade_status: 'TRADE_FINISHED' };
      case 'refunded':
        return { ...fields, ...refund(trade.totalAmount), trade_status: 'TRADE_CLOSED', gmt_close: now };
      case 'partlyRefunded':
        return { ...fields, ...refund('0.01'), trade_status: 'TRADE_SUCCESS' };
      case 'closed':
        return { ...fields, trade_status: 'TRADE_CLOSED', gmt_close: now };
    }
  }

  function tradeOf(outTradeNo: string): AlipayTrade {
    const trade = trades.get(outTradeNo);
    if (!trade) throw new Error(`no Alipay trade for ${outTradeNo}`);
    return trade;
  }

  function notificationBody(outTradeNo: string, event: AlipayEvent, options: NotifyOptions = {}): string {
    const fields = { ...fieldsOf(tradeOf(outTradeNo), event), ...options.set };
    // Notifications are signed without sign and sign_type.
    const sign = rsa2Sign(
      signingString(fields, ['sign', 'sign_type']),
      options.signWith ?? alipay.privateKey,
    );
    return new URLSearchParams({ ...fields, sign, ...options.tamper }).toString();
  }

  return {
    gatewayUrl: `${listening.url}/gateway.do`,
    appId,
    writeKeyFiles(dir, style = 'pkcs8Pem') {
      const privateKeyFile = join(dir, `app-private-${style}.pem`);
      const publicKeyFile = join(dir, `alipay-public-${style}.pem`);
      const pem = (text: string | Buffer) => text.toString();
      const bare = (der: string | Buffer) => Buffer.from(der).toString('base64');
      if (style === 'bareBase64') {
        writeFileSync(privateKeyFile, bare(app.privateKey.export({ format: 'der', type: 'pkcs1' })));
        writeFileSync(publicKeyFile, bare(alipay.publicKey.export({ format: 'der', type: 'spki' })));
      } else {
        const type = style === 'pkcs1Pem' ? 'pkcs1' : 'pkcs8';
        writeFileSync(privateKeyFile, pem(app.privateKey.export({ format: 'pem', type })));
        writeFileSync(publicKeyFile, pem(alipay.publicKey.export({ format: 'pem', type: 'spki' })));
      }
      return { privateKeyFile, publicKeyFile };
    },
    trade: (outTradeNo) => trades.get(outTradeNo),
    notificationBody,
    async notify(outTradeNo, event, options) {
      const response = await fetch(tradeOf(outTradeNo).notifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: notificationBody(outTradeNo, event, options),
      });
      return { status: response.status, body: await response.text() };
    },
    signAnswersWith(key) {
      answerKey = key ?? alipay.privateKey;
    },
    close: listening.close,
  };
}
