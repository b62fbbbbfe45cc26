import {
  createDecipheriv,
  createSign,
  createVerify,
  type KeyObject,
  randomBytes,
  X509Certificate,
} from 'node:crypto';
import { z } from 'zod';
import { clock } from '../../../clock.ts';

// WeChat Pay API v3's signature scheme (pay.weixin.qq.com/doc/v3/merchant/4012365334), on
// node:crypto alone: requests signed with the merchant's API key, answers and notifications
// verified with WeChat Pay's platform certificates (from GET /v3/certificates, each encrypted with
// the APIv3 key), notification resources decrypted with that key (AEAD_AES_256_GCM).

const SIGNATURE_TYPE = 'WECHATPAY2-SHA256-RSA2048';

/** A signed message further than this from now is refused (WeChat Pay refuses ours the same way). */
const MAX_SKEW_MS = 5 * 60_000;

/** Platform certificates are fetched again after this long (WeChat Pay rotates them). */
const CERTIFICATES_FRESH_MS = 12 * 60 * 60_000;

/** An unknown serial fetches the list again, but not more often than this (forgeries name any). */
const UNKNOWN_SERIAL_REFETCH_MS = 60_000;

const REQUEST_TIMEOUT_MS = 15_000;

interface Merchant {
  mchId: string;
  /** The serial number of the merchant's API certificate (apiclient_cert.pem). */
  serialNo: string;
  privateKey: KeyObject;
}

/** A certificate's serial as WeChat Pay writes it: upper-case hex. */
export function serialOf(certificate: X509Certificate): string {
  return certificate.serialNumber.toUpperCase();
}

/** WeChat Pay's signed text: each part on its own line, the last one ended too. */
function signedText(parts: readonly string[]): string {
  return parts.map((part) => `${part}\n`).join('');
}

function sign(key: KeyObject, parts: readonly string[]): string {
  return createSign('RSA-SHA256').update(signedText(parts)).sign(key, 'base64');
}

function verifies(key: KeyObject, parts: readonly string[], signature: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(signedText(parts)).verify(key, signature, 'base64');
  } catch {
    return false;
  }
}

function newNonce(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

/** The Authorization header of a request: the merchant's signature over method, path, time, nonce, body. */
function authorization(
  merchant: Merchant,
  request: { method: string; pathAndQuery: string; body: string },
  now: Date = clock.now(),
  nonce: string = newNonce(),
): string {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = sign(merchant.privateKey, [
    request.method,
    request.pathAndQuery,
    timestamp,
    nonce,
    request.body,
  ]);
  return `${SIGNATURE_TYPE} mchid="${merchant.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${merchant.serialNo}"`;
}

/** An answer's or a notification's body with the Wechatpay-* headers that sign it. */
interface SignedMessage {
  timestamp: string;
  nonce: string;
  signature: string;
  serial: string;
  body: string;
}

type Headers = Record<string, string | string[] | undefined> | globalThis.Headers;

function header(headers: Headers, name: string): string | undefined {
  const value = headers instanceof globalThis.Headers ? headers.get(name) : headers[name];
  return typeof value === 'string' && value ? value : undefined;
}

/** The signed message a request or answer carries, or null when a signing header is missing. */
export function signedMessageOf(headers: Headers, body: string): SignedMessage | null {
  const timestamp = header(headers, 'wechatpay-timestamp');
  const nonce = header(headers, 'wechatpay-nonce');
  const signature = header(headers, 'wechatpay-signature');
  const serial = header(headers, 'wechatpay-serial');
  if (!timestamp || !nonce || !signature || !serial) return null;
  const type = header(headers, 'wechatpay-signature-type');
  if (type !== undefined && type !== SIGNATURE_TYPE) return null;
  return { timestamp, nonce, signature, serial, body };
}

function verifiesMessage(key: KeyObject, message: SignedMessage): boolean {
  return verifies(key, [message.timestamp, message.nonce, message.body], message.signature);
}

/** Whether a signed message's time lies within MAX_SKEW_MS of now. */
function isFresh(message: SignedMessage, now: Date): boolean {
  if (!/^\d{1,12}$/.test(message.timestamp)) return false;
  return Math.abs(Number(message.timestamp) * 1000 - now.getTime()) <= MAX_SKEW_MS;
}

export const zEncrypted = z.object({
  algorithm: z.literal('AEAD_AES_256_GCM'),
  ciphertext: z.string().min(1).max(1_000_000),
  associated_data: z.string().max(1000).optional(),
  nonce: z.string().min(1).max(100),
});
type Encrypted = z.infer<typeof zEncrypted>;

/** AEAD_AES_256_GCM as WeChat Pay uses it: the ciphertext is base64 of the encrypted text and its 16-byte tag. */
function decrypt(apiV3Key: string, encrypted: Encrypted): string {
  const data = Buffer.from(encrypted.ciphertext, 'base64');
  if (data.length <= 16) throw new Error('ciphertext too short');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    Buffer.from(apiV3Key, 'utf8'),
    Buffer.from(encrypted.nonce),
  );
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(encrypted.associated_data ?? '', 'utf8'));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}

const zCertificateList = z.object({
  data: z
    .array(
      z.object({
        serial_no: z.string().min(1).max(64),
        encrypt_certificate: zEncrypted,
      }),
    )
    .max(20),
});

/** An answer WeChat Pay gave with an error code (or that was not its own). */
class WechatPayError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'WechatPayError';
    this.status = status;
  }
}

/**
 * One merchant's WeChat Pay API v3 client: signed calls whose answers are verified, and the
 * platform certificates that verify them and the notifications.
 */
export class WechatPayApi {
  private certificates = new Map<string, KeyObject>();
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private fetching: Promise<void> | null = null;
  private readonly settings: { apiUrl: string; apiV3Key: string; merchant: Merchant };

  constructor(settings: { apiUrl: string; apiV3Key: string; merchant: Merchant }) {
    this.settings = settings;
    if (Buffer.byteLength(settings.apiV3Key) !== 32) throw new Error('the WeChat Pay APIv3 key is 32 bytes');
  }

  /** A signed call; a 2xx answer whose signature does not verify is an error like any other. */
  async call(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<unknown> {
    const { answer, text } = await this.send(method, path, payload);
    const message = signedMessageOf(answer.headers, text);
    const key = message && (await this.platformKey(message.serial));
    if (!key || !verifiesMessage(key, message))
      throw new WechatPayError(answer.status, `${path}: answer not signed by WeChat Pay`);
    return text ? JSON.parse(text) : null;
  }

  /** A notification's signature and time: from a current platform certificate, within five minutes. */
  async verifyNotification(message: SignedMessage): Promise<boolean> {
    if (!isFresh(message, clock.now())) return false;
    const key = await this.platformKey(message.serial);
    return key !== undefined && verifiesMessage(key, message);
  }

  decrypt(encrypted: Encrypted): string {
    return decrypt(this.settings.apiV3Key, encrypted);
  }

  private async send(method: 'GET' | 'POST', path: string, payload?: unknown) {
    const url = new URL(`${this.settings.apiUrl.replace(/\/+$/, '')}${path}`);
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const answer = await fetch(url, {
      method,
      headers: {
        Authorization: authorization(this.settings.merchant, {
          method,
          pathAndQuery: url.pathname + url.search,
          body,
        }),
        Accept: 'application/json',
        'User-Agent': 'Margin',
        ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { body }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await answer.text();
    if (!answer.ok) {
      const error = z.object({ code: z.string(), message: z.string() }).safeParse(safeJson(text));
      throw new WechatPayError(
        answer.status,
        `${path}: ${answer.status} ${error.success ? `${error.data.code} ${error.data.message}` : ''}`.trim(),
      );
    }
    return { answer, text };
  }

  /** The platform certificate's key for a serial, fetching the list when it is old or lacks the serial. */
  private async platformKey(serial: string): Promise<KeyObject | undefined> {
    const now = clock.now().getTime();
    const age = now - this.fetchedAt;
    const known = this.certificates.get(serial.toUpperCase());
    if (known && age < CERTIFICATES_FRESH_MS) return known;
    if (!known && age < UNKNOWN_SERIAL_REFETCH_MS) return undefined;
    this.fetching ??= this.fetchCertificates().finally(() => {
      this.fetching = null;
    });
    try {
      await this.fetching;
    } catch (error) {
      // A certificate it already had still verifies while WeChat Pay cannot be reached.
      if (known) return known;
      throw error;
    }
    return this.certificates.get(serial.toUpperCase());
  }

  /**
   * GET /v3/certificates. Each certificate decrypts only with the APIv3 key (which only the
   * merchant and WeChat Pay know), and the answer must be signed by one of them.
   */
  private async fetchCertificates(): Promise<void> {
    this.fetchedAt = clock.now().getTime();
    const { answer, text } = await this.send('GET', '/v3/certificates');
    const list = zCertificateList.parse(JSON.parse(text));
    const certificates = new Map<string, KeyObject>();
    for (const item of list.data) {
      const certificate = new X509Certificate(this.decrypt(item.encrypt_certificate));
      const serial = serialOf(certificate);
      if (serial !== item.serial_no.toUpperCase()) continue;
      certificates.set(serial, certificate.publicKey);
    }
    const message = signedMessageOf(answer.headers, text);
    const key = message && certificates.get(message.serial.toUpperCase());
    if (!key || !verifiesMessage(key, message))
      throw new WechatPayError(answer.status, '/v3/certificates: answer not signed by WeChat Pay');
    this.certificates = certificates;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
