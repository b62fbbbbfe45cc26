import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../config.ts';
import type { User } from '../db/entities/index.ts';
import { log } from '../log.ts';
import type { Queues } from '../queue.ts';
import { queueChangedPushes } from './sync/push/push.service.ts';
import { queueWebhookDeliveries } from './webhooks/queue.ts';

// The unit of work of a change (docs/ARCHITECTURE.md, "What follows a change"). A service that
// changes a user's data runs its writes in `change()`: one transaction, in which the service
// records its webhook events (the outbox, webhooks/events.ts) and the sync's triggers stamp what
// it changed of the export. What follows is decided here, from what the transaction wrote, and
// queued after it committed:
// - the user's webhook deliveries, when events are waiting;
// - a debounced push to the user's push tools, when the transaction changed what they receive
//   (a note or highlight row stamped by it, or a tombstone it left).
// So every front (tRPC, the REST API, the sync fronts, the workers) gets the same effects by
// calling the service, and a no-op change (a tag a note already has) pushes nothing.

/** What a change needs: the caller's EntityManager and what it queues with. */
export interface ChangeDeps {
  em: EntityManager;
  queues: Queues;
  config: AppConfig;
}

/** Work to do once the change has committed (a job to queue); it never undoes the change. */
type AfterCommit = () => Promise<void>;

export interface ChangeScope {
  /** The transaction's EntityManager: every write of the change goes through it. */
  tx: EntityManager;
  /** Runs `work` after the commit (after the outermost change when changes nest). */
  afterCommit(work: AfterCommit): void;
}

interface OpenChange {
  users: Set<number>;
  afterCommit: AfterCommit[];
}

/** The transactions `change()` opened, so a service calling another joins the caller's change. */
const openChanges = new WeakMap<EntityManager, OpenChange>();

/** Whether this transaction changed what the user's push tools receive (see the sync triggers). */
const EXPORT_CHANGED_HERE = `select exists (
    select 1 from "note" where "user_id" = ? and "change_xid" = pg_current_xact_id()
  ) or exists (
    select 1 from "highlight" where "user_id" = ? and "change_xid" = pg_current_xact_id()
  ) or exists (
    select 1 from "export_tombstone" where "user_id" = ? and "change_xid" = pg_current_xact_id()
  ) as "changed"`;

async function exportChangedHere(tx: EntityManager, userId: number): Promise<boolean> {
  const [row] = await tx.execute<{ changed: boolean }[]>(EXPORT_CHANGED_HERE, [userId, userId, userId]);
  return row?.changed === true;
}

/**
 * Runs `work` as one change of `user`'s data (see the top of this file) and answers what it
 * answered. Called inside another change's transaction, it joins that change.
 */
export async function change<T>(
  deps: ChangeDeps,
  user: Pick<User, 'id'>,
  work: (scope: ChangeScope) => Promise<T>,
): Promise<T> {
  const open = openChanges.get(deps.em);
  if (open) {
    open.users.add(user.id);
    return work({ tx: deps.em, afterCommit: (job) => open.afterCommit.push(job) });
  }
  const state: OpenChange = { users: new Set([user.id]), afterCommit: [] };
  const pushesFor: number[] = [];
  const result = await deps.em.transactional(async (tx) => {
    openChanges.set(tx, state);
    const value = await work({ tx, afterCommit: (job) => state.afterCommit.push(job) });
    for (const userId of state.users) if (await exportChangedHere(tx, userId)) pushesFor.push(userId);
    return value;
  });
  await queueWhatFollows(deps, state, pushesFor);
  return result;
}

/** After the commit. The change is saved whatever happens here: a queue that fails is logged. */
async function queueWhatFollows(deps: ChangeDeps, state: OpenChange, pushesFor: number[]): Promise<void> {
  for (const userId of state.users) await queueWebhookDeliveries(deps.em, deps, userId);
  for (const userId of pushesFor) await queueChangedPushes(deps.em, deps, userId);
  for (const job of state.afterCommit) {
    try {
      await job();
    } catch (error) {
      log.warn('work after a change failed', { error: (error as Error).message });
    }
  }
}
