import { randomInt } from 'node:crypto';
import http from 'node:http';
import Stripe from 'stripe';
import { clock } from '../../server/clock.ts';
import { listenOnLoopback, readBody } from '../helpers/loopback-server.ts';

// Stripe's API on 127.0.0.1, for the calls Margin makes: POST /v1/checkout/sessions (form-encoded
// with Stripe's bracket notation, checked as Stripe checks it) and GET /v1/payment_intents/:id.
// What the buyer and the operator do on Stripe's side (paying on the Checkout page, expiry, a
// refund from the dashboard) are helpers that change the fake's objects and give back the event
// Stripe would send, which `send` posts to the webhook endpoint signed with the endpoint's secret.

type StripeObject = Record<string, unknown>;

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: StripeObject };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface LineItem {
  name: string;
  currency: string;
  unitAmount: number;
  quantity: number;
}

/** The session as the fake keeps it, with what paying it made. */
export interface FakeSession {
  session: StripeObject & { id: string; amount_total: number; currency: string; status: string };
  /** The line items as sent (Stripe keeps them apart from the session, behind its own list call). */
  lineItems: LineItem[];
  /** `payment_intent_data` as sent. */
  paymentIntentData: { metadata?: Record<string, string> };
  /** The Idempotency-Key the session was created with. */
  idempotencyKey: string | undefined;
  paymentIntent: (StripeObject & { id: string }) | null;
  charge: (StripeObject & { id: string; amount: number; amount_refunded: number }) | null;
}

export interface SendOptions {
  /** Signed with this secret instead of the endpoint's: a forged event. */
  secret?: string;
  /** Changes the body after signing: a tampered event. */
  tamper?: (body: string) => string;
  /** The signature's timestamp (seconds; default: now by the shared clock). */
  timestamp?: number;
}

export interface FakeStripe {
  /** The API base URL, for STRIPE_API_URL. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** The webhook endpoint events are posted to (set in Stripe's dashboard for a real account). */
  setWebhookEndpoint(url: string): void;
  sessions(): FakeSession[];
  /** The API calls answered, in order. */
  calls(): { method: string; path: string; status: number }[];
  /** The session made for an order (by its client_reference_id). */
  sessionFor(orderId: string): FakeSession | undefined;
  /**
   * The buyer pays on the Checkout page: a payment intent and its charge; checkout.session.completed.
   * `delayed`: a method that settles later (a bank debit): the session completes unpaid.
   */
  pay(sessionId: string, options?: { delayed?: boolean }): StripeEvent;
  /** A delayed payment settles: checkout.session.async_payment_succeeded. */
  settle(sessionId: string): StripeEvent;
  /** The session expires unpaid: checkout.session.expired. */
  expire(sessionId: string): StripeEvent;
  /** The operator refunds the charge (all of what is left by default): charge.refunded. */
  refund(sessionId: string, amount?: number): StripeEvent;
  /** An event of `type` about the session (checkout.*) or its charge (charge.*) as they are, patched. */
  event(type: string, sessionId: string, patch?: StripeObject): StripeEvent;
  /** Posts the event to the endpoint, signed as Stripe signs it: Margin's answer. */
  send(event: StripeEvent, options?: SendOptions): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function stripeId(prefix: string, length = 24): string {
  let id = `${prefix}_`;
  for (let i = 0; i < length; i++) id += BASE62[randomInt(BASE62.length)];
  return id;
}

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/** A 4xx answer in Stripe's error shape. */
class StripeApiError extends Error {
  readonly status: number;
  readonly extra: { type?: string; code?: string; param?: string };
  constructor(status: number, message: string, extra: StripeApiError['extra'] = {}) {
    super(message);
    this.status = status;
    this.extra = extra;
  }
  get body() {
    return { error: { type: 'invalid_request_error', message: this.message, ...this.extra } };
  }
}

const missing = (param: string) =>
  new StripeApiError(400, `Missing required param: ${param}.`, { code: 'parameter_missing', param });
const invalid = (param: string, message: string) =>
  new StripeApiError(400, message, { code: 'parameter_invalid', param });

type Form = { [key: string]: string | Form };

/** `a[b][0][c]=v` pairs into nested objects, as Stripe reads its form bodies. */
function parseForm(body: string): Form {
  const root: Form = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match?.[1]) throw invalid(key, `Invalid parameter name: ${key}`);
    const path = [match[1], ...[...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? '')];
    let node = root;
    for (const [i, part] of path.entries()) {
      const prefix = path.slice(0, i + 1).join('][');
      if (i === path.length - 1) {
        if (typeof node[part] === 'object') throw invalid(prefix, `Invalid hash: ${key}`);
        node[part] = value;
      } else {
        const next = node[part] ?? {};
        if (typeof next === 'string') throw invalid(prefix, `Invalid hash: ${key}`);
        node[part] = next;
        node = next;
      }
    }
  }
  return root;
}

function hash(form: Form, key: string, param: string): Form | undefined {
  const value = form[key];
  if (value === undefined) return undefined;
  if (typeof value === 'string') throw invalid(param, `Invalid hash: ${param}`);
  return value;
}

function text(form: Form, key: string, param: string): string | undefined {
  const value = form[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(param, `Invalid string: ${param}`);
  return value;
}

function integer(form: Form, key: string, param: string, min: number): number | undefined {
  const value = text(form, key, param);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw invalid(param, `Invalid integer: ${value}`);
  const n = Number(value);
  if (n < min) throw invalid(param, `This value must be greater than or equal to ${min}.`);
  return n;
}

/** An array sent as `key[0]`, `key[1]`, …: Stripe wants the indices to start at 0 and follow on. */
function list(form: Form, key: string): Form[] | undefined {
  const value = hash(form, key, key);
  if (!value) return undefined;
  return Object.keys(value).map((index, i) => {
    if (index !== String(i)) throw invalid(key, `Invalid array: ${key}`);
    const item = value[index];
    if (typeof item !== 'object') throw invalid(`${key}[${i}]`, `Invalid hash: ${key}[${i}]`);
    return item;
  });
}

function metadata(form: Form, key: string, param: string): Record<string, string> {
  const value = hash(form, key, param) ?? {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw invalid(`${param}[${k}]`, `Invalid string: ${param}[${k}]`);
    if (k.length > 40) throw invalid(param, 'Metadata keys can be at most 40 characters long.');
    if (v.length > 500) throw invalid(param, 'Metadata values can be at most 500 characters long.');
  }
  return value as Record<string, string>;
}

function url(form: Form, key: string): string | undefined {
  const value = text(form, key, key);
  if (value !== undefined && !URL.canParse(value)) throw invalid(key, 'Not a valid URL');
  return value;
}

const CREATE_PARAMS = [
  'mode',
  'line_items',
  'client_reference_id',
  'metadata',
  'payment_intent_data',
  'success_url',
  'cancel_url',
  'customer_email',
  'expires_at',
];

/** One line item's price: price_data (a price object made on the fly); `price` ids are unknown here. */
function lineItem(item: Form, i: number): LineItem {
  const param = `line_items[${i}]`;
  const quantity = integer(item, 'quantity', `${param}[quantity]`, 1);
  if (quantity === undefined)
    throw new StripeApiError(400, `Quantity is required. Add \`quantity\` to \`${param}\``, {
      code: 'parameter_missing',
      param: `${param}[quantity]`,
    });
  if (item.price !== undefined)
    throw new StripeApiError(400, `No such price: '${String(item.price)}'`, {
      code: 'resource_missing',
      param: `${param}[price]`,
    });
  const priceData = hash(item, 'price_data', `${param}[price_data]`);
  if (!priceData)
    throw new StripeApiError(400, `You must specify either \`price\` or \`price_data\` in \`${param}\`.`, {
      param,
    });
  const currency = text(priceData, 'currency', `${param}[price_data][currency]`);
  if (currency === undefined) throw missing(`${param}[price_data][currency]`);
  if (!/^[a-zA-Z]{3}$/.test(currency))
    throw invalid(`${param}[price_data][currency]`, `Invalid currency: ${currency}.`);
  const unitAmount = integer(priceData, 'unit_amount', `${param}[price_data][unit_amount]`, 0);
  if (unitAmount === undefined) throw missing(`${param}[price_data][unit_amount]`);
  const productData = hash(priceData, 'product_data', `${param}[price_data][product_data]`);
  if (!productData) throw missing(`${param}[price_data][product_data]`);
  const name = text(productData, 'name', `${param}[price_data][product_data][name]`);
  if (!name) throw missing(`${param}[price_data][product_data][name]`);
  return { name, currency: currency.toLowerCase(), unitAmount, quantity };
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const secretKey = stripeId('sk_test', 48);
  const webhookSecret = stripeId('whsec', 32);
  const sessions = new Map<string, FakeSession>();
  const intents = new Map<string, StripeObject & { id: string }>();
  const idempotent = new Map<string, { body: string; status: number; answer: unknown }>();
  const calls: { method: string; path: string; status: number }[] = [];
  let endpoint: string | null = null;
  let baseUrl = '';

  function createSession(form: Form, idempotencyKey: string | undefined): StripeObject {
    for (const key of Object.keys(form))
      if (!CREATE_PARAMS.includes(key))
        throw new StripeApiError(400, `Received unknown parameter: ${key}`, { param: key });
    const mode = text(form, 'mode', 'mode');
    if (!mode) throw missing('mode');
    if (mode !== 'payment') throw invalid('mode', `Invalid mode: ${mode} (this fake makes payments only)`);
    const items = list(form, 'line_items');
    if (!items?.length)
      throw new StripeApiError(400, '`line_items` is required in `payment` mode.', {
        code: 'parameter_missing',
        param: 'line_items',
      });
    const lines = items.map(lineItem);
    const currency = lines[0]?.currency ?? '';
    if (lines.some((line) => line.currency !== currency))
      throw invalid('line_items', 'All line items must use the same currency.');
    const clientReferenceId = text(form, 'client_reference_id', 'client_reference_id');
    if (clientReferenceId !== undefined && clientReferenceId.length > 200)
      throw invalid('client_reference_id', 'client_reference_id can be at most 200 characters long.');
    const email = text(form, 'customer_email', 'customer_email');
    if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
      throw invalid('customer_email', `Invalid email address: ${email}`);
    const paymentIntentData = hash(form, 'payment_intent_data', 'payment_intent_data') ?? {};
    for (const key of Object.keys(paymentIntentData))
      if (key !== 'metadata')
        throw new StripeApiError(400, `Received unknown parameter: payment_intent_data[${key}]`);
    const now = seconds(clock.now());
    const expiresAt = integer(form, 'expires_at', 'expires_at', 0) ?? now + 24 * 3600;
    if (expiresAt < now + 30 * 60 || expiresAt > now + 24 * 3600)
      throw invalid(
        'expires_at',
        'The `expires_at` timestamp must be at least 30 minutes and at most 24 hours after the Checkout Session is created.',
      );
    const id = stripeId('cs_test', 58);
    const amount = lines.reduce((sum, line) => sum + line.unitAmount * line.quantity, 0);
    const session: FakeSession['session'] = {
      id,
      object: 'checkout.session',
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: url(form, 'cancel_url') ?? null,
      client_reference_id: clientReferenceId ?? null,
      created: now,
      currency,
      customer: null,
      customer_details: null,
      customer_email: email ?? null,
      expires_at: expiresAt,
      livemode: false,
      metadata: metadata(form, 'metadata', 'metadata'),
      mode,
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: url(form, 'success_url') ?? null,
      url: `${baseUrl}/c/pay/${id}`,
    };
    sessions.set(id, {
      session,
      lineItems: lines,
      paymentIntentData: {
        metadata: metadata(paymentIntentData, 'metadata', 'payment_intent_data[metadata]'),
      },
      idempotencyKey,
      paymentIntent: null,
      charge: null,
    });
    return session;
  }

  function answerFor(
    req: http.IncomingMessage,
    path: string,
    body: string,
  ): { status: number; answer: unknown } {
    const auth = req.headers.authorization ?? '';
    if (!auth) throw new StripeApiError(401, 'You did not provide an API key.');
    if (auth !== `Bearer ${secretKey}`)
      throw new StripeApiError(
        401,
        `Invalid API Key provided: ${auth.replace(/^Bearer /, '').slice(0, 8)}****`,
      );
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const key = req.headers['idempotency-key'] as string | undefined;
      const kept = key ? idempotent.get(key) : undefined;
      if (kept) {
        if (kept.body !== body)
          throw new StripeApiError(
            400,
            'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            { type: 'idempotency_error' },
          );
        return kept;
      }
      const answer = { status: 200, answer: createSession(parseForm(body), key) };
      if (key) idempotent.set(key, { body, ...answer });
      return answer;
    }
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && intent?.[1]) {
      const found = intents.get(decodeURIComponent(intent[1]));
      if (!found)
        throw new StripeApiError(404, `No such payment_intent: '${intent[1]}'`, {
          code: 'resource_missing',
          param: 'intent',
        });
      return { status: 200, answer: found };
    }
    throw new StripeApiError(404, `Unrecognized request URL (${req.method}: ${path}).`);
  }

  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const checkoutPage = /^\/c\/pay\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && checkoutPage) {
      const found = sessions.get(checkoutPage[1] ?? '');
      res.writeHead(found ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        found ? `<!doctype html><title>Checkout</title><h1>Pay ${found.session.amount_total}</h1>` : '',
      );
      return;
    }
    let status: number;
    let answer: unknown;
    try {
      ({ status, answer } = answerFor(req, path, body));
    } catch (error) {
      status = error instanceof StripeApiError ? error.status : 500;
      answer =
        error instanceof StripeApiError
          ? error.body
          : { error: { type: 'api_error', message: (error as Error).message } };
    }
    calls.push({ method: req.method ?? '', path, status });
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': stripeId('req', 14) });
    res.end(JSON.stringify(answer));
  });
  const listening = await listenOnLoopback(server);
  baseUrl = listening.url;

  function sessionOf(sessionId: string): FakeSession {
    const found = sessions.get(sessionId);
    if (!found) throw new Error(`no such session: ${sessionId}`);
    return found;
  }

  function event(type: string, sessionId: string, patch: StripeObject = {}): StripeEvent {
    const found = sessionOf(sessionId);
    const object = type.startsWith('charge.') ? found.charge : found.session;
    if (!object) throw new Error(`${type}: session ${sessionId} has no charge`);
    return {
      id: stripeId('evt', 24),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: seconds(clock.now()),
      data: { object: { ...structuredClone(object), ...patch } },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  return {
    url: baseUrl,
    secretKey,
    webhookSecret,
    setWebhookEndpoint(url) {
      endpoint = url;
    },
    sessions: () => [...sessions.values()],
    calls: () => [...calls],
    sessionFor: (orderId) => [...sessions.values()].find((s) => s.session.client_reference_id === orderId),

    pay(sessionId, { delayed = false } = {}) {
      const found = sessionOf(sessionId);
      if (found.session.status !== 'open') throw new Error(`session ${sessionId} is ${found.session.status}`);
      const { amount_total: amount, currency } = found.session;
      const created = seconds(clock.now());
      const chargeId = stripeId('ch', 24);
      const intent = {
        id: stripeId('pi', 24),
        object: 'payment_intent',
        amount,
        amount_received: delayed ? 0 : amount,
        created,
        currency,
        latest_charge: chargeId,
        livemode: false,
        metadata: { ...found.paymentIntentData.metadata },
        status: delayed ? 'processing' : 'succeeded',
      };
      intents.set(intent.id, intent);
      found.paymentIntent = intent;
      found.charge = {
        id: chargeId,
        object: 'charge',
        amount,
        amount_captured: amount,
        amount_refunded: 0,
        captured: true,
        created,
        currency,
        livemode: false,
        // Stripe copies the payment intent's metadata onto the charge when it is confirmed.
        metadata: { ...intent.metadata },
        paid: !delayed,
        payment_intent: intent.id,
        refunded: false,
        status: delayed ? 'pending' : 'succeeded',
      };
      Object.assign(found.session, {
        customer_details: { email: found.session.customer_email },
        payment_intent: intent.id,
        payment_status: delayed ? 'unpaid' : 'paid',
        status: 'complete',
      });
      return event('checkout.session.completed', sessionId);
    },

    settle(sessionId) {
      const found = sessionOf(sessionId);
      if (found.paymentIntent?.status !== 'processing')
        throw new Error(`session ${sessionId}: nothing to settle`);
      Object.assign(found.paymentIntent, {
        status: 'succeeded',
        amount_received: found.session.amount_total,
      });
      Object.assign(found.charge ?? {}, { paid: true, status: 'succeeded' });
      found.session.payment_status = 'paid';
      return event('checkout.session.async_payment_succeeded', sessionId);
    },

    expire(sessionId) {
      const found = sessionOf(sessionId);
      if (found.session.status !== 'open') throw new Error(`session ${sessionId} is ${found.session.status}`);
      Object.assign(found.session, { status: 'expired', url: null });
      return event('checkout.session.expired', sessionId);
    },

    refund(sessionId, amount) {
      const charge = sessionOf(sessionId).charge;
      if (!charge) throw new Error(`session ${sessionId} was not paid`);
      const left = charge.amount - charge.amount_refunded;
      const refunded = amount ?? left;
      if (refunded < 1 || refunded > left) throw new Error(`cannot refund ${refunded} of ${left}`);
      charge.amount_refunded += refunded;
      charge.refunded = charge.amount_refunded === charge.amount;
      return event('charge.refunded', sessionId);
    },

    event,

    async send(event, options = {}) {
      if (!endpoint) throw new Error('no webhook endpoint set');
      const payload = JSON.stringify(event, null, 2);
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? webhookSecret,
        timestamp: options.timestamp ?? seconds(clock.now()),
      });
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: options.tamper ? options.tamper(payload) : payload,
      });
      return { status: response.status, body: await response.text() };
    },

    close: listening.close,
  };
}
