import type { WebhookEvent } from '../../../src/schemas/webhooks.ts';

/** The translation key of each event's label (the event's own name is shown beside it, as code). */
export const EVENT_LABEL_KEYS: Readonly<Record<WebhookEvent, string>> = {
  'note.created': 'webhooks.events.noteCreated',
  'note.updated': 'webhooks.events.noteUpdated',
  'highlight.created': 'webhooks.events.highlightCreated',
  'highlight.updated': 'webhooks.events.highlightUpdated',
  'highlight.deleted': 'webhooks.events.highlightDeleted',
  'daily.appended': 'webhooks.events.dailyAppended',
};
