import { z } from 'zod';
import { zStoredId } from '../rules/id.ts';
import { zText } from '../rules/text.ts';

// Webhooks: endpoints a user registers for events, what each delivery carries, and how the
// settings page reads the endpoints and their delivery log.

/** The events an endpoint can subscribe to, in the order the settings page lists them. */
export const WEBHOOK_EVENTS = [
  'note.created',
  'note.updated',
  'highlight.created',
  'highlight.updated',
  'highlight.deleted',
  'daily.appended',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The test event ("Send test event"): sent to one endpoint on request, never subscribed to. */
export const WEBHOOK_PING = 'ping';
export type WebhookEventType = WebhookEvent | typeof WEBHOOK_PING;

export const WEBHOOK_ENDPOINTS_PER_USER_MAX = 10;
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The headers of every delivery; the signature is `v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`. */
export const WEBHOOK_HEADERS = {
  id: 'Margin-Webhook-Id',
  timestamp: 'Margin-Webhook-Timestamp',
  signature: 'Margin-Webhook-Signature',
} as const;
export const WEBHOOK_SIGNATURE_VERSION = 'v1';

/** pending: waiting for its turn or a retry; delivered: answered 2xx; failed: given up (the endpoint was disabled). */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * Why Margin turned an endpoint off: its deliveries kept failing, or the owner's plan no longer
 * has webhooks (a user's own switch leaves no reason).
 */
export const WEBHOOK_DISABLED_REASONS = ['failing', 'membership'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

// ---- what a delivery carries ----------------------------------------------------------------
// The Open API's shapes: times are epoch seconds named `createAt` and `updateAt`, as in every
// answer of the Open API and the seed's sync protocol. Margin's own views (the settings page's
// below) carry Dates named `createdAt`.

export const zWebhookNote = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  /** The note's flow: inbox 1, later 2, shortlist 3, archive 9. */
  flow: z.number().int(),
  trashed: z.boolean(),
  tags: z.array(z.string()),
  folderId: z.string().nullable(),
  createAt: z.number().int(),
  updateAt: z.number().int(),
});
export type WebhookNote = z.infer<typeof zWebhookNote>;

export const zWebhookHighlight = z.object({
  id: z.string(),
  noteId: z.string().nullable(),
  /** 1 a text highlight, 2 an image highlight, 6 a text note. */
  coreType: z.number().int(),
  /** The quoted passage (a text note's own text). */
  text: z.string(),
  imageUrl: z.string().nullable(),
  /** The colour slot, 1 to 6. */
  slotId: z.number().int(),
  style: z.number().int(),
  annotation: z.string().nullable(),
  tags: z.array(z.string()),
  createAt: z.number().int(),
  updateAt: z.number().int(),
});
export type WebhookHighlight = z.infer<typeof zWebhookHighlight>;

export const zWebhookHighlightDeleted = z.object({ id: z.string(), noteId: z.string().nullable() });

export const zWebhookDailyAppended = z.object({
  /** The day, YYYY-MM-DD in the user's time zone. */
  day: z.string(),
  /** The daily note appended to (or, for highlights moved to a new entry, that entry). */
  noteId: z.string(),
  /** The Markdown that was appended. */
  text: z.string(),
  /** The highlights quoted in it; empty for appended text. */
  highlightIds: z.array(z.string()),
});
export type WebhookDailyAppended = z.infer<typeof zWebhookDailyAppended>;

export const zWebhookPing = z.object({ endpointId: z.string() });

/** What each event's `data` is. */
export interface WebhookEventData {
  'note.created': WebhookNote;
  'note.updated': WebhookNote;
  'highlight.created': WebhookHighlight;
  'highlight.updated': WebhookHighlight;
  'highlight.deleted': z.infer<typeof zWebhookHighlightDeleted>;
  'daily.appended': WebhookDailyAppended;
  ping: z.infer<typeof zWebhookPing>;
}

/** The body of a delivery: the event's id (the same in every retry), type, time and data. */
export interface WebhookPayload<T extends WebhookEventType = WebhookEventType> {
  id: string;
  type: T;
  /** When the event happened, in epoch seconds; the delivery log shows it as `createdAt`. */
  createAt: number;
  data: WebhookEventData[T];
}

// ---- the settings page -----------------------------------------------------------------------

export const zWebhookEndpointId = zStoredId;
export const zWebhookEvents = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, 'errors.webhookEventsEmpty')
  .max(WEBHOOK_EVENTS.length)
  .transform((events) => WEBHOOK_EVENTS.filter((event) => events.includes(event)));
/** Whether the address is one Margin may call is the server's rule (https, or a target the operator allowed). */
export const zWebhookUrl = zText()
  .trim()
  .min(1, 'errors.cannotBeEmpty')
  .max(WEBHOOK_URL_MAX, 'errors.tooLong');

export const zCreateWebhookInput = z.object({ url: zWebhookUrl, events: zWebhookEvents });
export type CreateWebhookInput = z.infer<typeof zCreateWebhookInput>;

export const zUpdateWebhookInput = z.object({
  id: zWebhookEndpointId,
  url: zWebhookUrl.optional(),
  events: zWebhookEvents.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookInput = z.infer<typeof zUpdateWebhookInput>;

export const zWebhookIdInput = z.object({ id: zWebhookEndpointId });

export const WEBHOOK_DELIVERIES_PAGE_MAX = 50;
export const zWebhookDeliveriesInput = z.object({
  id: zWebhookEndpointId,
  limit: z.number().int().min(1).max(WEBHOOK_DELIVERIES_PAGE_MAX).default(10),
  cursor: zText()
    .max(32)
    .regex(/^\d{1,18}$/, 'errors.invalidInput')
    .nullish(),
});
export type WebhookDeliveriesInput = z.infer<typeof zWebhookDeliveriesInput>;

export const zWebhookEndpointView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  /** Set when Margin turned the endpoint off, with when. */
  disabledReason: z.enum(WEBHOOK_DISABLED_REASONS).nullable(),
  disabledAt: z.date().nullable(),
  /** The first failure of the current run of failures; null while deliveries succeed. */
  failingSince: z.date().nullable(),
  /** When the delivery waiting on a failure is tried again. */
  retryAt: z.date().nullable(),
  /** The secret's first characters (`whsec_ab12`), enough to tell secrets apart; never the whole secret. */
  secretHint: z.string(),
  createdAt: z.date(),
});
export type WebhookEndpointView = z.infer<typeof zWebhookEndpointView>;

/** A new endpoint or a rolled secret: the plain secret, shown once, and the endpoint. */
export const zWebhookWithSecret = z.object({ secret: z.string(), endpoint: zWebhookEndpointView });

export const zWebhookDeliveryView = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The HTTP status of the last attempt; null when it got no answer. */
  lastStatus: z.number().int().nullable(),
  /** Why the last attempt failed without an answer: the guarded fetcher's reason code. */
  lastError: z.string().nullable(),
  createdAt: z.date(),
  lastAttemptAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
});
export type WebhookDeliveryView = z.infer<typeof zWebhookDeliveryView>;

export const zWebhookDeliveryPage = z.object({
  items: z.array(zWebhookDeliveryView),
  nextCursor: z.string().nullable(),
});
