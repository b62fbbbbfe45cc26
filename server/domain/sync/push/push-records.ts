import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PushApp } from '../../../../src/schemas/sync.ts';
import { clock } from '../../../clock.ts';

/**
 * What was pushed where (the `push_record` table): one row per item sent to a tool — a highlight
 * for flomo and WorkFlowy (`h:<noteId>:<highlightId>`), a note for SiYuan (`n:<noteId>`) — with the
 * tool's id for it and a hash of what was sent. Keys start with the destination (a hash of the
 * webhook, the WorkFlowy key and parent, the SiYuan kernel and notebook), so a reconnection to
 * the same place sends nothing twice and one to another place sends everything there.
 */

export interface PushRecord {
  remoteId: string | null;
  hash: string;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The first string after every string that starts with `prefix` (its last character raised by one). */
function nextPrefix(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** The destination prefix of item keys: short, but far beyond colliding among one user's connections. */
export function destinationKey(identity: string): string {
  return sha256(identity).slice(0, 16);
}

export const itemKeys = {
  highlight: (noteId: string, highlightId: string) => `h:${noteId}:${highlightId}`,
  note: (noteId: string) => `n:${noteId}`,
  /** What the keys of one note's highlights start with. */
  highlightsOf: (noteId: string) => `h:${noteId}:`,
};

interface Row {
  item_key: string;
  remote_id: string | null;
  content_hash: string;
}

export class PushRecords {
  private readonly em: EntityManager;
  private readonly userId: number;
  private readonly app: PushApp;
  private readonly destination: string;

  constructor(em: EntityManager, userId: number, app: PushApp, destination: string) {
    this.em = em;
    this.userId = userId;
    this.app = app;
    this.destination = destination;
  }

  private full(itemKey: string): string {
    return `${this.destination}:${itemKey}`;
  }

  async get(itemKey: string): Promise<PushRecord | undefined> {
    const [row] = await this.em.execute<Row[]>(
      'select item_key, remote_id, content_hash from push_record where user_id = ? and app = ? and item_key = ?',
      [this.userId, this.app, this.full(itemKey)],
    );
    return row && { remoteId: row.remote_id, hash: row.content_hash };
  }

  /** The records whose item key starts with `prefix` (one note's items), by item key without the destination. */
  async withPrefix(prefix: string): Promise<Map<string, PushRecord>> {
    const rows = await this.em.execute<Row[]>(
      `select item_key, remote_id, content_hash from push_record
       where user_id = ? and app = ? and item_key >= ? and item_key < ?`,
      // A range, not starts_with: the primary key's index serves it (under C.UTF-8 it cannot serve starts_with).
      [this.userId, this.app, this.full(prefix), nextPrefix(this.full(prefix))],
    );
    const start = this.destination.length + 1;
    return new Map(
      rows.map((r) => [r.item_key.slice(start), { remoteId: r.remote_id, hash: r.content_hash }]),
    );
  }

  /** Written right after the tool accepted the item, so a retried job never sends it again. */
  async put(itemKey: string, record: PushRecord): Promise<void> {
    await this.em.execute(
      `insert into push_record (user_id, app, item_key, remote_id, content_hash, pushed_at) values (?, ?, ?, ?, ?, ?)
       on conflict (user_id, app, item_key) do update
         set remote_id = excluded.remote_id, content_hash = excluded.content_hash, pushed_at = excluded.pushed_at`,
      [this.userId, this.app, this.full(itemKey), record.remoteId, record.hash, clock.now()],
    );
  }

  async remove(itemKey: string): Promise<void> {
    await this.em.execute('delete from push_record where user_id = ? and app = ? and item_key = ?', [
      this.userId,
      this.app,
      this.full(itemKey),
    ]);
  }

  /** When the user's last item went to this tool (epoch ms; 0 for never), for pacing across runs. */
  async lastPushedAt(): Promise<number> {
    const [row] = await this.em.execute<{ at: Date | null }[]>(
      'select max(pushed_at) as at from push_record where user_id = ? and app = ?',
      [this.userId, this.app],
    );
    return row?.at ? new Date(row.at).getTime() : 0;
  }

  /** On connecting: what was pushed to another destination says nothing about this one. */
  async forgetOtherDestinations(): Promise<void> {
    await this.em.execute(
      'delete from push_record where user_id = ? and app = ? and not starts_with(item_key, ?)',
      [this.userId, this.app, `${this.destination}:`],
    );
  }
}
