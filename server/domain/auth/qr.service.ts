import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import QRCode from 'qrcode';
import { AppError } from '../../../src/errors.ts';
import {
  QR_TICKET_TTL_SECONDS,
  type QrCreated,
  type QrRequester,
  QrStatus,
} from '../../../src/schemas/auth.ts';
import { clock } from '../../clock.ts';
import { User } from '../../db/entities/index.ts';
import { enforceLimits, LIMITS, type LimitStore } from '../rate-limit.ts';
import { type ClientInfo, createSession, type NewSession } from './session.service.ts';

interface Ticket {
  secretHash: string;
  status: QrStatus;
  userId: number | null;
  userAgent: string | null;
  ip: string | null;
  createdAt: number;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Moves a ticket from one of `from` to `to` atomically (a Lua script, so two phones or two polls
 * cannot both win), keeping its remaining lifetime. Returns the ticket as it was, or nil.
 */
const TRANSITION = `
local raw = redis.call('GET', KEYS[1])
if not raw then return nil end
local ticket = cjson.decode(raw)
local allowed = false
for _, s in ipairs(cjson.decode(ARGV[1])) do if ticket.status == s then allowed = true end end
if not allowed then return raw end
ticket.status = ARGV[2]
if ARGV[3] ~= '' then ticket.userId = tonumber(ARGV[3]) end
if ARGV[2] == 'redeemed' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], cjson.encode(ticket), 'KEEPTTL') end
return raw`;

export interface QrDeps extends LimitStore {
  publicUrl: string;
}

const key = (deps: QrDeps, ticketId: string) => `${deps.redisPrefix}:qr:${ticketId}`;

async function transition(
  deps: QrDeps,
  ticketId: string,
  from: string[],
  to: string,
  userId?: number,
): Promise<Ticket | null> {
  const raw = (await deps.redis.eval(
    TRANSITION,
    1,
    key(deps, ticketId),
    JSON.stringify(from),
    to,
    userId ? String(userId) : '',
  )) as string | null;
  return raw ? (JSON.parse(raw) as Ticket) : null;
}

/**
 * A new two-minute ticket; the QR code encodes the URL a signed-in phone opens. Each is a Redis
 * key, so creating them is limited per address (LIMITS.qrCreate), and each expires on its own.
 */
export async function createTicket(deps: QrDeps, client: ClientInfo): Promise<QrCreated> {
  if (client.ip) {
    await enforceLimits(deps.redis, deps.redisPrefix, [
      { key: `qr:ip:${client.ip}:minute`, ...LIMITS.qrCreate.perIpMinute },
      { key: `qr:ip:${client.ip}:hour`, ...LIMITS.qrCreate.perIpHour },
    ]);
  }
  const ticketId = randomBytes(18).toString('base64url');
  const secret = randomBytes(24).toString('base64url');
  const ticket: Ticket = {
    secretHash: sha256(secret),
    status: QrStatus.pending,
    userId: null,
    userAgent: client.userAgent?.slice(0, 300) ?? null,
    ip: client.ip,
    createdAt: clock.now().getTime(),
  };
  await deps.redis.set(key(deps, ticketId), JSON.stringify(ticket), 'EX', QR_TICKET_TTL_SECONDS);
  const url = `${deps.publicUrl}/qrlogin/${ticketId}`;
  const svg = await QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { ticketId, secret, url, svg, expiresAt: new Date(ticket.createdAt + QR_TICKET_TTL_SECONDS * 1000) };
}

async function readTicket(deps: QrDeps, ticketId: string): Promise<Ticket | null> {
  const raw = await deps.redis.get(key(deps, ticketId));
  return raw ? (JSON.parse(raw) as Ticket) : null;
}

function ownsTicket(ticket: Ticket, secret: string): boolean {
  return timingSafeEqual(Buffer.from(ticket.secretHash, 'hex'), Buffer.from(sha256(secret), 'hex'));
}

export type PollResult = { status: QrStatus; signedIn?: { user: User; session: NewSession } };

/**
 * The creating browser polls. On "confirmed" the poll redeems the ticket exactly once and
 * returns a session for that browser; a missing ticket reads as expired.
 */
export async function pollTicket(
  em: EntityManager,
  deps: QrDeps,
  input: { ticketId: string; secret: string },
  client: ClientInfo,
): Promise<PollResult> {
  const ticket = await readTicket(deps, input.ticketId);
  if (!ticket) return { status: QrStatus.expired };
  if (!ownsTicket(ticket, input.secret)) throw new AppError('FORBIDDEN', 'qr.invalid');
  if (ticket.status !== QrStatus.confirmed) return { status: ticket.status };
  const redeemed = await transition(deps, input.ticketId, [QrStatus.confirmed], 'redeemed');
  if (redeemed?.status !== QrStatus.confirmed || !redeemed.userId) return { status: QrStatus.expired };
  const user = await em.findOne(User, { id: redeemed.userId });
  if (!user) return { status: QrStatus.expired };
  return { status: QrStatus.confirmed, signedIn: { user, session: await createSession(em, user, client) } };
}

/** A signed-in phone opened the code: mark it scanned and show who asks. */
export async function scanTicket(deps: QrDeps, ticketId: string): Promise<QrRequester> {
  const before = await transition(deps, ticketId, [QrStatus.pending, QrStatus.scanned], QrStatus.scanned);
  if (!before || (before.status !== QrStatus.pending && before.status !== QrStatus.scanned)) {
    throw new AppError('NOT_FOUND', 'qr.invalid');
  }
  return { userAgent: before.userAgent, ip: before.ip, createdAt: new Date(before.createdAt) };
}

/** The phone's answer: confirm signs the desktop in as the phone's user; cancel ends the ticket. */
export async function decideTicket(
  deps: QrDeps,
  user: User,
  ticketId: string,
  approve: boolean,
): Promise<void> {
  const to = approve ? QrStatus.confirmed : QrStatus.cancelled;
  const before = await transition(
    deps,
    ticketId,
    [QrStatus.pending, QrStatus.scanned],
    to,
    approve ? user.id : undefined,
  );
  if (!before || (before.status !== QrStatus.pending && before.status !== QrStatus.scanned)) {
    throw new AppError('NOT_FOUND', 'qr.invalid');
  }
}
