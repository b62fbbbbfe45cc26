import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, type AppErrorCode } from '../../../src/errors.ts';
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

/** Wrong codes a ticket survives: the next one burns it. */
export const DEVICE_CODE_MISSES_MAX = 5;

interface TicketRow {
  app: TokenApp | null;
  user_id: string | null;
  user_code_hash: string | null;
  code_misses: number;
  expired: boolean;
  used: boolean;
  burned: boolean;
}

/** A code is kept only as this hash, salted with the client id it belongs to. */
const codeHashOf = (clientId: string, userCode: string | undefined) =>
  userCode === undefined ? null : hashToken(`${clientId}:${userCode}`);

/** The ticket as of `now`, locked until the transaction ends, so a confirmation and a poll take turns. */
async function lockedTicket(tx: EntityManager, clientId: string, now: Date): Promise<TicketRow | undefined> {
  const [ticket] = await tx.execute<TicketRow[]>(
    `select app, user_id, user_code_hash, code_misses, expires_at <= ? as expired,
       used_at is not null as used, burned_at is not null as burned
     from device_ticket where client_id = ? for update`,
    [now, clientId],
  );
  return ticket;
}

/** No one gets a token from the ticket any more: its poller is told it expired. */
async function burnTicket(tx: EntityManager, clientId: string): Promise<void> {
  await tx.execute('update device_ticket set burned_at = ? where client_id = ?', [clock.now(), clientId]);
}

type Confirmation = 'confirmed' | 'used' | 'burned' | 'claimed' | 'codeNeeded' | 'codeWrong';

/** What the user confirming is told when their confirmation did not take. */
const CONFIRMATION_REFUSALS: Record<Exclude<Confirmation, 'confirmed'>, [AppErrorCode, string]> = {
  used: ['CONFLICT', 'errors.deviceTicketUsed'],
  burned: ['CONFLICT', 'errors.deviceTicketBurned'],
  claimed: ['CONFLICT', 'errors.deviceTicketClaimed'],
  codeNeeded: ['BAD_REQUEST', 'errors.deviceCodeNeeded'],
  codeWrong: ['BAD_REQUEST', 'errors.deviceCodeWrong'],
};

/**
 * The signed-in user confirms the plugin that opened `/page/gentoken/<serviceId>/<clientId>`.
 * When the plugin registered the code it shows, the user must enter it: a few wrong codes burn
 * the ticket. Confirming again before the plugin collects renews the ticket. A ticket another
 * account confirmed and the plugin has not collected is burned: whoever learned its address
 * first cannot have the plugin sync into their account, and neither account's token goes out.
 * The burn is kept though the user is told it failed.
 */
export async function confirmDevice(
  em: EntityManager,
  user: User,
  input: { serviceId: number; clientId: string; userCode?: string | undefined },
): Promise<{ app: TokenApp }> {
  const app = tokenAppOfServiceId(input.serviceId);
  if (!app) throw new AppError('BAD_REQUEST', 'errors.syncServiceUnknown');
  const { clientId } = input;
  const codeHash = codeHashOf(clientId, input.userCode);
  const outcome = await em.transactional(async (tx): Promise<Confirmation> => {
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + DEVICE_TICKET_TTL_MS);
    const created = await tx.execute<{ client_id: string }[]>(
      `insert into device_ticket (client_id, app, user_id, user_code_hash, expires_at, created_at)
       values (?, ?, ?, ?, ?, ?) on conflict (client_id) do nothing returning client_id`,
      [clientId, app, user.id, codeHash, expiresAt, now],
    );
    if (created.length) return 'confirmed';
    const ticket = await lockedTicket(tx, clientId, now);
    if (!ticket || ticket.used) return 'used';
    if (ticket.burned) return 'burned';
    if (ticket.user_id !== null && Number(ticket.user_id) !== user.id) {
      await burnTicket(tx, clientId);
      return 'claimed';
    }
    if (ticket.user_code_hash !== null && ticket.user_code_hash !== codeHash) {
      if (codeHash === null) return 'codeNeeded';
      const misses = ticket.code_misses + 1;
      await tx.execute('update device_ticket set code_misses = ? where client_id = ?', [misses, clientId]);
      if (misses < DEVICE_CODE_MISSES_MAX) return 'codeWrong';
      await burnTicket(tx, clientId);
      return 'burned';
    }
    await tx.execute(
      `update device_ticket set user_id = ?, app = ?, expires_at = ?,
         user_code_hash = coalesce(user_code_hash, ?) where client_id = ?`,
      [user.id, app, expiresAt, codeHash, clientId],
    );
    return 'confirmed';
  });
  if (outcome !== 'confirmed') throw new AppError(...CONFIRMATION_REFUSALS[outcome]);
  return { app };
}

export type DeviceRedemption =
  | { state: 'token'; token: string }
  | { state: 'pending' }
  | { state: 'expired' };

/**
 * A plugin's poll, with the code it shows if it is one of Margin's. The first poll with a code
 * registers the ticket, before anyone can have seen its client id. The token goes out once, to
 * a poll with the code the ticket was made with (none for the seed's plugins), when its client
 * id was confirmed and has not expired; a poll with another code burns the ticket, so a token
 * never goes to a poller that is not the one that showed the user its code. The ticket is
 * taken and the token made in one transaction, so two polls at once get one token.
 */
export async function redeemDeviceTicket(
  em: EntityManager,
  clientId: string,
  userCode?: string,
): Promise<DeviceRedemption> {
  const codeHash = codeHashOf(clientId, userCode);
  return em.transactional(async (tx): Promise<DeviceRedemption> => {
    const now = clock.now();
    if (codeHash !== null) {
      await tx.execute(
        `insert into device_ticket (client_id, user_code_hash, expires_at, created_at) values (?, ?, ?, ?)
         on conflict (client_id) do nothing`,
        [clientId, codeHash, new Date(now.getTime() + DEVICE_TICKET_TTL_MS), now],
      );
    }
    const ticket = await lockedTicket(tx, clientId, now);
    if (!ticket) return { state: 'pending' };
    if (ticket.used || ticket.burned || ticket.expired) return { state: 'expired' };
    if (ticket.user_code_hash !== codeHash) {
      await burnTicket(tx, clientId);
      return { state: 'expired' };
    }
    if (ticket.user_id === null || ticket.app === null) return { state: 'pending' };
    await tx.execute('update device_ticket set used_at = ? where client_id = ?', [now, clientId]);
    const owner = await tx.findOneOrFail(User, { id: Number(ticket.user_id) });
    const { token } = await createSyncToken(tx, owner, { app: ticket.app, clientId });
    return { state: 'token', token };
  });
}

/** Tickets used or expired a day ago are of no more use (run with the session purge). */
export async function purgeSpentDeviceTickets(em: EntityManager, now = clock.now()): Promise<number> {
  return em.nativeDelete(DeviceTicket, { expiresAt: { $lte: new Date(now.getTime() - 24 * 60 * 60_000) } });
}
