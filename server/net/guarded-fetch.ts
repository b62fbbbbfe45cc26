import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { type AddressCategory, classifyAddress, literalAddress } from './ip-policy.ts';

/**
 * The one HTTP client for user-supplied URLs. Each hop: the scheme and port are checked, the
 * host is resolved once, every address is checked, and the connection is pinned to those
 * checked addresses (the socket's `lookup` never asks DNS again).
 * Redirects are followed by hand through the same checks. Size, total time, idle time and
 * redirect count are bounded, and content types are allowed by list.
 */

export const FETCH_REFUSAL_REASONS = [
  'invalid_url',
  'scheme',
  'blocked_port',
  'blocked_address',
  'dns',
  'connection',
  'timeout',
  'too_large',
  'too_many_redirects',
  'redirect_loop',
  'http_status',
  'content_type',
  'encoding',
] as const;
export type FetchRefusalReason = (typeof FETCH_REFUSAL_REASONS)[number];

const REFUSAL_MESSAGES: Record<FetchRefusalReason, string> = {
  invalid_url: 'The link is not a valid web address.',
  scheme: 'Only http and https links can be fetched.',
  blocked_port: 'The link uses a port that cannot be fetched.',
  blocked_address: 'The link points to a private, local or reserved network address.',
  dns: 'The site name could not be found.',
  connection: 'The site could not be reached or sent an invalid response.',
  timeout: 'The site took too long to respond.',
  too_large: 'The page is larger than the allowed size.',
  too_many_redirects: 'The link redirects too many times.',
  redirect_loop: 'The link redirects in a loop.',
  http_status: 'The site answered with an error.',
  content_type: 'This kind of content cannot be fetched here.',
  encoding: 'The site sent the content in an unsupported encoding.',
};

/** Why a fetch was refused. `message` is safe to show; `cause` (when set) is for logs only. */
export class FetchRefusedError extends Error {
  readonly reason: FetchRefusalReason;
  /** The HTTP status, for reasons 'http_status' and 'content_type' (a success in a type not asked for). */
  readonly status: number | undefined;

  constructor(reason: FetchRefusalReason, options: { status?: number; cause?: unknown } = {}) {
    super(REFUSAL_MESSAGES[reason], options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FetchRefusedError';
    this.reason = reason;
    this.status = options.status;
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses. Tests pass their own to avoid real DNS. */
export type HostLookup = (hostname: string) => Promise<readonly { address: string; family?: number }[]>;

export interface GuardedFetchOptions {
  /** Upper bound on the body, both as received and after decompression. Default 10 MiB. */
  maxBytes?: number;
  /** Bound on the whole fetch, redirects included. Default 20 s. */
  timeoutMs?: number;
  /** Bound on any silence of the connection (connecting, headers, between body chunks). Default 10 s. */
  idleTimeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** MIME types the final response may have; `type/*` allows a whole type. */
  allowedContentTypes: readonly string[];
  /**
   * Exact `host:port` / `ip:port` / `[ipv6]:port` entries that may be reached although their
   * address is loopback, private or unique-local (local test servers, intranets). It never
   * opens metadata, link-local or other reserved addresses.
   */
  allowedTargets?: readonly string[];
  userAgent: string;
  /** Replaces DNS (tests). Default: `dns.lookup` with `all: true`. */
  lookup?: HostLookup;
  /**
   * An API call (a push to a note tool) rather than a page fetch: its method (default GET),
   * headers besides the fetcher's own, and body. A call with a method other than GET or with
   * headers of its own follows no redirect, so credentials never travel on to another host.
   */
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Readonly<Record<string, string>>;
  body?: string;
  /**
   * Every status is answered as a response (an API's error statuses carry its reasons) instead of
   * refused; the content type is then checked only for a 2xx with content (not 204).
   */
  answerAnyStatus?: boolean;
}

export interface GuardedResponse {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** The lower-case MIME type without parameters, e.g. `text/html`. */
  contentType: string;
  /** The `charset` parameter of Content-Type, lower-cased, if any. */
  charset: string | undefined;
  /** The decoded (decompressed) body. */
  body: Buffer;
}

/** Content-type lists for the two kinds of fetch we make. SVG is left out of images on purpose: it carries script. */
export const PAGE_CONTENT_TYPES = ['text/html', 'application/xhtml+xml', 'text/plain'] as const;
export const IMAGE_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
] as const;

const DEFAULTS = { maxBytes: 10 * 1024 * 1024, timeoutMs: 20_000, idleTimeoutMs: 10_000, maxRedirects: 5 };

/** Categories an `allowedTargets` entry can open; everything else stays closed whatever the config says. */
const ALLOWABLE_CATEGORIES: ReadonlySet<AddressCategory> = new Set(['loopback', 'private', 'unique-local']);

/** Ports browsers refuse to fetch (WHATWG Fetch "bad port"): other protocols' services. */
const BAD_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

interface Settings {
  maxBytes: number;
  timeoutMs: number;
  idleTimeoutMs: number;
  maxRedirects: number;
  allowedContentTypes: readonly string[];
  allowedTargets: ReadonlySet<string>;
  userAgent: string;
  lookup: HostLookup;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Readonly<Record<string, string>>;
  body: string | undefined;
  followRedirects: boolean;
  answerAnyStatus: boolean;
}

/** A URL whose host has been resolved and whose every address passed the policy. */
export interface CheckedTarget {
  url: URL;
  /** The host name without IPv6 brackets; what goes into Host and SNI. */
  hostname: string;
  port: number;
  addresses: readonly ResolvedAddress[];
}

const defaultLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

/** `host:port` in canonical form (lower case, IPv6 bracketed and compressed) for allow-list matching. */
function targetKey(host: string, port: number): string {
  return `${new URL(`http://${host}`).hostname}:${port}`;
}

function addressHost(address: string): string {
  return isIP(address) === 6 ? `[${address}]` : address;
}

/** Canonicalises `allowedTargets` entries; a malformed entry is a configuration error. */
function normaliseAllowedTargets(entries: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const entry of entries) {
    const [, host = '', port = ''] = entry.trim().match(/^(.+):(\d{1,5})$/) ?? [];
    let key: string | undefined;
    try {
      key = host && Number(port) <= 65535 ? targetKey(host, Number(port)) : undefined;
    } catch {
      key = undefined;
    }
    if (!key || /[/@?#]/.test(host))
      throw new TypeError(`allowed fetch target must be host:port, got "${entry}"`);
    keys.add(key);
  }
  return keys;
}

function settingsFrom(options: GuardedFetchOptions): Settings {
  return {
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
    maxRedirects: options.maxRedirects ?? DEFAULTS.maxRedirects,
    allowedContentTypes: options.allowedContentTypes.map((type) => type.toLowerCase()),
    allowedTargets: normaliseAllowedTargets(options.allowedTargets ?? []),
    userAgent: options.userAgent,
    lookup: options.lookup ?? defaultLookup,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    body: options.body,
    followRedirects: (options.method ?? 'GET') === 'GET' && options.headers === undefined,
    answerAnyStatus: options.answerAnyStatus ?? false,
  };
}

function parseUrl(text: string, base?: URL): URL {
  try {
    return new URL(text, base);
  } catch (cause) {
    throw new FetchRefusedError('invalid_url', { cause });
  }
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

async function resolveAddresses(hostname: string, lookup: HostLookup): Promise<ResolvedAddress[]> {
  const literal = literalAddress(hostname);
  if (literal) return [{ address: literal, family: isIP(literal) === 6 ? 6 : 4 }];
  let answers: readonly { address: string }[];
  try {
    answers = await lookup(hostname);
  } catch (cause) {
    throw new FetchRefusedError('dns', { cause });
  }
  const addresses: ResolvedAddress[] = [];
  for (const { address } of answers) {
    const family = isIP(address.split('%')[0] as string);
    if (family === 0) throw new FetchRefusedError('dns');
    addresses.push({ address, family: family === 6 ? 6 : 4 });
  }
  if (addresses.length === 0) throw new FetchRefusedError('dns');
  return addresses;
}

function checkScheme(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefusedError('scheme');
}

function isAllowedAddress(address: string, hostKey: string, port: number, settings: Settings): boolean {
  const category = classifyAddress(address);
  if (category === 'public') return true;
  if (!ALLOWABLE_CATEGORIES.has(category)) return false;
  return (
    settings.allowedTargets.has(hostKey) || settings.allowedTargets.has(targetKey(addressHost(address), port))
  );
}

/**
 * What can be said of a URL before any lookup, for checking an address when it is saved (a
 * webhook endpoint): whether it is a target the operator allowed, and whether its port is one
 * the fetcher refuses. Delivery still goes through the full check.
 */
export function staticTargetCheck(
  url: URL,
  allowedTargets: readonly string[],
): { allowed: boolean; blockedPort: boolean } {
  const port = portOf(url);
  const allowed = normaliseAllowedTargets(allowedTargets).has(targetKey(url.hostname, port));
  return { allowed, blockedPort: BAD_PORTS.has(port) && !allowed };
}

async function checkTargetWith(url: URL, settings: Settings): Promise<CheckedTarget> {
  checkScheme(url);
  const port = portOf(url);
  const hostKey = `${url.hostname}:${port}`;
  if (BAD_PORTS.has(port) && !settings.allowedTargets.has(hostKey))
    throw new FetchRefusedError('blocked_port');
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = await resolveAddresses(url.hostname, settings.lookup);
  for (const { address } of addresses) {
    if (!isAllowedAddress(address, hostKey, port, settings)) throw new FetchRefusedError('blocked_address');
  }
  return { url, hostname, port, addresses };
}

/**
 * Runs the pre-connection checks for one URL (scheme, port, resolution, address policy) without
 * connecting. `guardedFetch` runs exactly this for every hop.
 */
export function checkTarget(url: string, options: GuardedFetchOptions): Promise<CheckedTarget> {
  return checkTargetWith(parseUrl(url), settingsFrom(options));
}

/** A socket `lookup` that answers only with the addresses already checked, whatever it is asked. */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = addresses.filter((a) => wanted === undefined || a.family === wanted);
    const first = usable[0];
    if (!first) {
      callback(
        Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' }),
        '',
      );
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

/** Rejects with the signal's reason if it aborts first; the underlying work is simply abandoned. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** One request/response pair; `failure` records why we cut it (idle timeout) so errors can be named. */
interface Exchange {
  response: IncomingMessage;
  failure: () => FetchRefusedError | undefined;
}

function explainFailure(
  error: unknown,
  ourFailure: FetchRefusedError | undefined,
  signal: AbortSignal,
): Error {
  if (ourFailure) return ourFailure;
  if (signal.aborted && signal.reason instanceof FetchRefusedError) return signal.reason;
  if (error instanceof FetchRefusedError) return error;
  return new FetchRefusedError('connection', { cause: error });
}

function send(target: CheckedTarget, settings: Settings, signal: AbortSignal): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    let failure: FetchRefusedError | undefined;
    const transport = target.url.protocol === 'https:' ? https : http;
    const request = transport.request({
      method: settings.method,
      host: target.hostname,
      port: target.port,
      path: `${target.url.pathname}${target.url.search}`,
      headers: {
        'user-agent': settings.userAgent,
        accept: settings.allowedContentTypes.join(', '),
        'accept-encoding': 'gzip, deflate, br',
        ...settings.headers,
        ...(settings.body !== undefined && { 'content-length': String(Buffer.byteLength(settings.body)) }),
        host: target.url.host,
      },
      agent: false, // no pooled socket from an earlier resolution
      lookup: pinnedLookup(target.addresses),
      signal,
    });
    request.on('socket', (socket) => {
      socket.setTimeout(settings.idleTimeoutMs, () => {
        failure = new FetchRefusedError('timeout');
        request.destroy(failure);
      });
    });
    request.on('response', (response) => resolve({ response, failure: () => failure }));
    // `on`, not `once`: a destroyed request can report more than one error.
    request.on('error', (error) => reject(explainFailure(error, failure, signal)));
    request.end(settings.body);
  });
}

/** A pass-through stage that fails with 'too_large' once more than `maxBytes` have gone by. */
function byteLimit(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > maxBytes) callback(new FetchRefusedError('too_large'));
      else callback(null, chunk);
    },
  });
}

/** `deflate` is meant to be zlib-wrapped, but many servers send raw deflate; decide from the first bytes. */
function deflateDecoder(): Transform {
  let inner: Transform | undefined;
  const outer: Transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!inner) {
        const zlibWrapped =
          (chunk[0]! & 0x0f) === 8 && (chunk.length < 2 || ((chunk[0]! << 8) | chunk[1]!) % 31 === 0);
        inner = zlibWrapped ? zlib.createInflate(tolerantFlush) : zlib.createInflateRaw(tolerantFlush);
        inner.on('data', (data: Buffer) => outer.push(data));
        inner.on('error', (error) => outer.destroy(error));
      }
      if (inner.write(chunk)) callback();
      else inner.once('drain', () => callback());
    },
    flush(callback) {
      if (!inner) return callback();
      inner.once('end', () => callback());
      inner.end();
    },
  });
  return outer;
}

// Browsers accept a truncated compressed body; so do we.
const tolerantFlush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };

function decodersFor(contentEncoding: string | undefined): Transform[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > 2) throw new FetchRefusedError('encoding');
  // Applied in the order listed, so undone in reverse.
  return codings.reverse().map((coding) => {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return zlib.createGunzip(tolerantFlush);
      case 'deflate':
        return deflateDecoder();
      case 'br':
        return zlib.createBrotliDecompress();
      default:
        throw new FetchRefusedError('encoding');
    }
  });
}

function parseContentType(header: string | undefined): { type: string; charset: string | undefined } {
  const [essence = '', ...parameters] = (header ?? '').split(';');
  const charset = parameters
    .map((parameter) => parameter.trim().match(/^charset\s*=\s*"?([^";\s]+)"?$/i)?.[1])
    .find((value) => value !== undefined);
  return { type: essence.trim().toLowerCase(), charset: charset?.toLowerCase() };
}

function isAllowedContentType(type: string, allowed: readonly string[]): boolean {
  if (type === '') return false;
  return allowed.some(
    (entry) => entry === type || (entry.endsWith('/*') && type.startsWith(entry.slice(0, -1))),
  );
}

async function readBody(response: IncomingMessage, settings: Settings, signal: AbortSignal): Promise<Buffer> {
  const declaredLength = Number(response.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > settings.maxBytes) {
    throw new FetchRefusedError('too_large');
  }
  // Every stage is bounded: the bytes on the wire, and the output of each decoder (zip bombs).
  const stages = [byteLimit(settings.maxBytes)];
  for (const decoder of decodersFor(response.headers['content-encoding'])) {
    stages.push(decoder, byteLimit(settings.maxBytes));
  }
  const chunks: Buffer[] = [];
  await pipeline(
    response,
    ...(stages as [Transform]),
    async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(chunk);
    },
    { signal },
  );
  return Buffer.concat(chunks);
}

async function finish(url: URL, exchange: Exchange, settings: Settings, signal: AbortSignal) {
  const { response } = exchange;
  const status = response.statusCode ?? 0;
  const success = status >= 200 && status <= 299;
  if (!success && !settings.answerAnyStatus) throw new FetchRefusedError('http_status', { status });
  const { type, charset } = parseContentType(response.headers['content-type']);
  const typeChecked = success && !(settings.answerAnyStatus && status === 204);
  if (typeChecked && !isAllowedContentType(type, settings.allowedContentTypes)) {
    throw new FetchRefusedError('content_type', { status });
  }
  let body: Buffer;
  try {
    body = await readBody(response, settings, signal);
  } catch (error) {
    throw explainFailure(error, exchange.failure(), signal);
  }
  return { url: url.href, status, headers: response.headers, contentType: type, charset, body };
}

function withoutHash(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.href;
}

/** Fetches a user-supplied URL under the guard. Throws `FetchRefusedError` for every refusal. */
export async function guardedFetch(url: string, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const settings = settingsFrom(options);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new FetchRefusedError('timeout')), settings.timeoutMs);
  const signal = deadline.signal;
  try {
    let current = parseUrl(url);
    const visited = new Set<string>();
    for (let redirects = 0; ; redirects++) {
      visited.add(withoutHash(current));
      const target = await untilAborted(checkTargetWith(current, settings), signal);
      const exchange = await send(target, settings, signal);
      try {
        const { statusCode = 0, headers } = exchange.response;
        const followed = settings.followRedirects && REDIRECT_STATUSES.has(statusCode);
        if (!followed || headers.location === undefined) {
          return await finish(current, exchange, settings, signal);
        }
        const next = parseUrl(headers.location, current);
        if (visited.has(withoutHash(next))) throw new FetchRefusedError('redirect_loop');
        if (redirects >= settings.maxRedirects) throw new FetchRefusedError('too_many_redirects');
        checkScheme(next);
        current = next;
      } finally {
        exchange.response.destroy();
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
