import type { EntityManager } from '@mikro-orm/postgresql';
import { NoteKind } from '../../../src/enums.ts';
import { newId } from '../../../src/rules/id.ts';
import type {
  WebhookEvent,
  WebhookEventData,
  WebhookEventType,
  WebhookPayload,
} from '../../../src/schemas/webhooks.ts';
import { clock } from '../../clock.ts';
import { type User, WebhookDelivery } from '../../db/entities/index.ts';
import { pgTextArray } from '../../db/pg-array.ts';
import { asEpochSeconds } from '../../db/row.ts';
import { HIGHLIGHT_DATA_COLUMNS, highlightFromRow, NOTE_DATA_COLUMNS, noteFromRow } from './event-data.ts';

// The outbox. Events are written by the services that make the changes, with the caller's
// EntityManager, inside the caller's transaction: an event exists exactly when its change
// committed. Delivery starts after the commit (queue.ts), or at the latest with the sweep.

type Owner = Pick<User, 'id'>;

/** One delivery row per event for each of `endpointIds`, in the order of `events`. */
async function insertDeliveries(
  em: EntityManager,
  endpointIds: readonly string[],
  type: WebhookEventType,
  events: readonly unknown[],
): Promise<void> {
  const now = clock.now();
  const rows = events.flatMap((data) => {
    const payload = { id: newId(), type, createAt: asEpochSeconds(now), data } as WebhookPayload;
    return endpointIds.map((endpoint) => ({
      endpoint,
      eventId: payload.id,
      eventType: type,
      payload,
      createdAt: now,
    }));
  });
  if (rows.length) await em.insertMany(WebhookDelivery, rows);
}

/** The user's enabled endpoints that take `type`. */
async function subscribedEndpoints(em: EntityManager, userId: number, type: WebhookEvent): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    'select "id" from "webhook_endpoint" where "user_id" = ? and "enabled" and ? = any("events") order by "id"',
    [userId, type],
  );
  return rows.map((row) => row.id);
}

/** Records `type` with each of `events` as its data (one event each) for every endpoint that takes it. */
async function recordEvents<T extends WebhookEvent>(
  em: EntityManager,
  user: Owner,
  type: T,
  events: () => Promise<WebhookEventData[T][]>,
): Promise<void> {
  const endpoints = await subscribedEndpoints(em, user.id, type);
  if (endpoints.length) await insertDeliveries(em, endpoints, type, await events());
}

/** Records one event for every enabled endpoint of the user's that takes `type`. */
export async function recordWebhookEvent<T extends WebhookEvent>(
  em: EntityManager,
  user: Owner,
  type: T,
  data: WebhookEventData[T],
): Promise<void> {
  await recordEvents(em, user, type, async () => [data]);
}

/** Queues a test event for one endpoint, whatever it subscribes to. */
export async function recordPing(em: EntityManager, endpointId: string): Promise<void> {
  await insertDeliveries(em, [endpointId], 'ping', [{ endpointId }]);
}

// The sync's change tracking (migrations/Migration20261126100000_sync.ts) stamps every note and
// highlight whose exported columns a transaction changed with that transaction's id. Reading the
// rows stamped by the current transaction tells exactly which of them a bulk statement changed,
// so a no-op (a tag a note already has, a state it is already in) makes no event. The caller's
// statements and these must share one transaction (the change's, server/domain/changes.ts).
const CHANGED_HERE = '"change_xid" = pg_current_xact_id()';

/**
 * Records `type` for each of the user's web notes (among `ids`, or all) that this transaction
 * changed, with the note as it is now.
 */
export async function recordNoteEvents(
  em: EntityManager,
  user: Owner,
  type: 'note.created' | 'note.updated',
  ids?: readonly string[],
): Promise<void> {
  await recordEvents(em, user, type, async () => {
    const rows = await em.execute<Record<string, unknown>[]>(
      `select ${NOTE_DATA_COLUMNS} from "note" where "user_id" = ? and "kind" = ? and ${CHANGED_HERE}
       ${ids ? 'and "id" = any(?::text[])' : ''} order by "id"`,
      [user.id, NoteKind.web, ...(ids ? [pgTextArray(ids)] : [])],
    );
    return rows.map(noteFromRow);
  });
}

/** Records `type` for each of the user's highlights (among `ids`, or all) that this transaction changed. */
export async function recordHighlightEvents(
  em: EntityManager,
  user: Owner,
  type: 'highlight.created' | 'highlight.updated',
  ids?: readonly string[],
): Promise<void> {
  await recordEvents(em, user, type, async () => {
    const rows = await em.execute<Record<string, unknown>[]>(
      `select ${HIGHLIGHT_DATA_COLUMNS} from "highlight" where "user_id" = ? and ${CHANGED_HERE}
       and "note_id" is not null ${ids ? 'and "id" = any(?::text[])' : ''} order by "id"`,
      [user.id, ...(ids ? [pgTextArray(ids)] : [])],
    );
    return rows.map(highlightFromRow);
  });
}
