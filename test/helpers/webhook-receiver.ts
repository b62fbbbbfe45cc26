import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback, readBody } from './loopback-server.ts';
import { waitFor } from './wait.ts';

// A webhook receiver on 127.0.0.1 (reached through FETCH_ALLOW_TARGETS): it records every request
// as it came (the raw body, which the signature covers) and answers 204, or what a test asks.

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as sent. */
  raw: string;
  body: { id: string; type: string; createAt: number; data: Record<string, unknown> };
  status: number;
}

export interface WebhookReceiver {
  /** `host:port`, for FETCH_ALLOW_TARGETS. */
  target: string;
  /** A new path on the receiver, so each test reads only its own endpoint's requests. */
  newUrl(): string;
  /** The requests to `url`, in arrival order. */
  received(url: string): ReceivedHook[];
  /** The next `count` requests to `url` are answered `status` (500). */
  failNext(url: string, count: number, status?: number): void;
  /** Waits until `url` has received at least `count` requests, and answers them. */
  waitFor(url: string, count: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedHook[] = [];
  const failures = new Map<string, { left: number; status: number }>();
  const server = http.createServer((req, res) => {
    void readBody(req).then((raw) => {
      const path = req.url ?? '/';
      const failing = failures.get(path);
      const status = failing && failing.left > 0 ? failing.status : 204;
      if (failing && failing.left > 0) failing.left--;
      requests.push({ path, headers: req.headers, raw, body: JSON.parse(raw), status });
      res.statusCode = status;
      // A redirect points at another path of the receiver, which must never be called.
      if (status >= 300 && status < 400) res.setHeader('location', `${path}/redirected`);
      res.end();
    });
  });
  const { url: origin, close } = await listenOnLoopback(server);
  const pathOf = (url: string) => new URL(url).pathname;
  const received = (url: string) => requests.filter((r) => r.path === pathOf(url));
  return {
    target: new URL(origin).host,
    newUrl: () => `${origin}/hooks/${randomBytes(6).toString('hex')}`,
    received,
    failNext(url, count, status = 500) {
      failures.set(pathOf(url), { left: count, status });
    },
    waitFor(url, count) {
      return waitFor(
        async () => {
          const got = received(url);
          return got.length >= count ? got : undefined;
        },
        20_000,
        `${count} requests to ${url}`,
      );
    },
    close,
  };
}

/**
 * Whether a request is signed with `secret`, checked as a receiver would (written here from the
 * documented format, not with the server's code): `v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`.
 */
export function signedWith(hook: ReceivedHook, secret: string): boolean {
  const timestamp = hook.headers['margin-webhook-timestamp'];
  const signature = Buffer.from(String(hook.headers['margin-webhook-signature'] ?? ''));
  const expected = Buffer.from(
    `v1=${createHmac('sha256', secret).update(`${timestamp}.${hook.raw}`).digest('hex')}`,
  );
  return signature.length === expected.length && timingSafeEqual(signature, expected);
}
