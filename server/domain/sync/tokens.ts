import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import {
  isPullApp,
  type SyncTokenView,
  type TokenApp,
  tokenAppOfServiceId,
} from '../../../src/schemas/sync.ts';
import { clock } from '../../clock.ts';
import { DeviceTicket, SyncToken, User } from '../../db/entities/index.ts';
import { hashToken, newToken } from '../auth/session-token.ts';
import { markBound } from './integrations.service.ts';

/** How long a confirmed device ticket waits for its plugin's poll. */
export const DEVICE_TICKET_TTL_MS = 10 * 60_000;
/** Last-used times are written at most this often, so a syncing plugin does not write on every call. */
const LAST_USED_EVERY_MS = 60_000;
const TOKEN_PREFIX = 'msync_';

const APP_NAMES: Record<TokenApp, string> = {
  obsidian: 'Obsidian',
  logseq: 'Logseq',
  siyuan: 'SiYuan',
  extension: 'Browser extension',
};

function view(token: SyncToken): SyncTokenView {
  return {
    id: token.id,
    app: token.app,
    name: token.name,
    createdAt: token.createdAt,
    lastUsedAt: token.lastUsedAt ?? null,
    lastUsedClient: token.lastUsedClient ?? null,
  };
}

/** A new token for `app`; the plain token is returned once and only its hash is kept. */
export async function createSyncToken(
  em: EntityManager,
  user: User,
  input: { app: TokenApp; name?: string; clientId?: string },
): Promise<{ token: string; view: SyncTokenView }> {
  const token = `${TOKEN_PREFIX}${newToken()}`;
  const entity = em.create(SyncToken, {
    user,
    app: input.app,
    name: input.name?.trim() || APP_NAMES[input.app],
    tokenHash: hashToken(token),
    clientId: input.clientId ?? null,
  });
  if (isPullApp(input.app)) await markBound(em, user, input.app);
  await em.flush();
  return { token, view: view(entity) };
}

export async function listSyncTokens(em: EntityManager, user: User): Promise<SyncTokenView[]> {
  const tokens = await em.find(
    SyncToken,
    { user, revokedAt: null },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  return tokens.map(view);
}

async function ownToken(em: EntityManager, user: User, id: number): Promise<SyncToken> {
  const token = await em.findOne(SyncToken, { id, user, revokedAt: null });
  if (!token) throw new AppError('NOT_FOUND', 'errors.syncTokenNotFound');
  return token;
}

export async function renameSyncToken(
  em: EntityManager,
  user: User,
  input: { id: number; name: string },
): Promise<SyncTokenView> {
  const token = await ownToken(em, user, input.id);
  token.name = input.name;
  await em.flush();
  return view(token);
}

export async function revokeSyncToken(em: EntityManager, user: User, input: { id: number }): Promise<void> {
  const token = await ownToken(em, user, input.id);
  token.revokedAt = clock.now();
  await em.flush();
}

/**
 * The user a sync token belongs to, or null for an unknown or revoked token. Notes when and
 * by which client it was last used (at most once a minute).
 */
export async function authenticateSyncToken(
  em: EntityManager,
  token: string,
  client: string | null,
): Promise<{ user: User; token: SyncToken } | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 128) return null;
  const found = await em.findOne(
    SyncToken,
    { tokenHash: hashToken(token), revokedAt: null },
    { populate: ['user'] },
  );
  if (!found) return null;
  const now = clock.now();
  if (
    !found.lastUsedAt ||
    now.getTime() - found.lastUsedAt.getTime() > LAST_USED_EVERY_MS ||
    found.lastUsedClient !== client
  ) {
    found.lastUsedAt = now;
    found.lastUsedClient = client?.slice(0, 128) ?? null;
    await em.flush();
  }
  return { user: found.user, token: found };
}

/**
 * The signed-in user confirms the plugin that opened `/page/gentoken/<serviceId>/<clientId>`.
 * Confirming again before the plugin collects renews the ticket; a ticket already used (or
 * another user's) cannot be taken over.
 */
export async function confirmDevice(
  em: EntityManager,
  user: User,
  input: { serviceId: number; clientId: string },
): Promise<{ app: TokenApp }> {
  const app = tokenAppOfServiceId(input.serviceId);
  if (!app) throw new AppError('BAD_REQUEST', 'errors.syncServiceUnknown');
  const expiresAt = new Date(clock.now().getTime() + DEVICE_TICKET_TTL_MS);
  const rows = await em.execute<{ client_id: string }[]>(
    `insert into device_ticket (client_id, app, user_id, expires_at, created_at) values (?, ?, ?, ?, ?)
     on conflict (client_id) do update set expires_at = excluded.expires_at, app = excluded.app
       where device_ticket.user_id = excluded.user_id and device_ticket.used_at is null
     returning client_id`,
    [input.clientId, app, user.id, expiresAt, clock.now()],
  );
  if (!rows.length) throw new AppError('CONFLICT', 'errors.deviceTicketUsed');
  return { app };
}

export type DeviceRedemption =
  | { state: 'token'; token: string }
  | { state: 'pending' }
  | { state: 'expired' };

/**
 * A plugin's poll: the token, once, if its client id was confirmed and has not expired. The
 * ticket is taken and the token made in one transaction, so two polls at once get one token.
 */
export async function redeemDeviceTicket(em: EntityManager, clientId: string): Promise<DeviceRedemption> {
  return em.transactional(async (tx) => {
    const now = clock.now();
    const [taken] = await tx.execute<{ user_id: string; app: TokenApp }[]>(
      `update device_ticket set used_at = ? where client_id = ? and used_at is null and expires_at > ?
       returning user_id, app`,
      [now, clientId, now],
    );
    if (!taken) {
      const exists = await tx.count(DeviceTicket, { clientId });
      return exists ? { state: 'expired' } : { state: 'pending' };
    }
    const user = await tx.findOneOrFail(User, { id: Number(taken.user_id) });
    const { token } = await createSyncToken(tx, user, { app: taken.app, clientId });
    return { state: 'token', token };
  });
}

/** Tickets used or expired a day ago are of no more use (run with the session purge). */
export async function purgeSpentDeviceTickets(em: EntityManager, now = clock.now()): Promise<number> {
  return em.nativeDelete(DeviceTicket, { expiresAt: { $lte: new Date(now.getTime() - 24 * 60 * 60_000) } });
}
