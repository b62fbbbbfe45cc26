import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { clock, setClock } from '../../server/clock.ts';
import { MembershipEvent, Order, User } from '../../server/db/entities/index.ts';
import type { MembershipAction } from '../../server/db/entities/membership-event.entity.ts';
import { toMe } from '../../server/domain/auth/me.ts';
import { downgradeExpiredMembers, remindExpiringMembers } from '../../server/domain/membership/expiry.ts';
import { grantProDays } from '../../server/domain/membership/grants.ts';
import {
  closeStaleOrders,
  getOrder,
  listOrders,
  markOrderPaid,
  markOrderRefunded,
  newOrderId,
} from '../../server/domain/membership/orders.ts';
import { translator } from '../../server/i18n.ts';
import { DAY_MS, HOUR_MS } from '../../src/constants.ts';
import { MemberLevel } from '../../src/enums.ts';
import { createTestDeps, TEST_NOW, type TestDeps } from '../helpers/deps.ts';
import { daysFromNow, expectExpiryWithin, type MemberKind, memberUser } from '../helpers/membership.ts';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
let smtp: SmtpSink;
let workers: RunningWorkers;

beforeAll(async () => {
  smtp = await startSmtpSink();
  deps = await createTestDeps({ MEMBERSHIP: 'on', SMTP_URL: smtp.url, PUBLIC_URL: 'https://margin.example' });
  workers = await startWorkers(deps);
});

afterAll(async () => {
  await workers?.close();
  await deps?.close();
  await smtp?.close();
});

const em = () => deps.orm.em.fork();
const reminderDeps = () => ({ queues: deps.queues, publicUrl: deps.config.publicUrl });
const userRow = (id: number) => em().findOneOrFail(User, id);
const events = (userId: number, action: MembershipAction) =>
  em().count(MembershipEvent, { user: userId, action });

async function unpaidOrder(
  userId: number,
  over: Partial<Pick<Order, 'proDays' | 'tier' | 'createdAt'>> = {},
) {
  const fork = em();
  const order = fork.create(Order, {
    id: newOrderId(),
    user: userId,
    source: 'stripe',
    productId: 'pro-month',
    tier: over.tier ?? 'pro',
    proDays: over.proDays ?? 31,
    amount: 499,
    currency: 'USD',
    description: 'Margin PRO · 31 days',
    ...(over.createdAt ? { createdAt: over.createdAt } : {}),
  });
  await fork.flush();
  return order.id;
}

describe('PRO days', () => {
  test('a grant counts from now, or from an expiry still ahead; super pro stays super pro', async () => {
    setClock(TEST_NOW);
    const { user } = await signedInUser(deps);
    const grant = (days: number, tier: 'pro' | 'superPro') =>
      grantProDays(em(), { userId: user.id, days, tier, actor: 'test', action: 'grant' });

    const tenDays = await daysFromNow(10, () => grant(10, 'pro'));
    const first = tenDays.value;
    expect(first?.memberLevel).toBe(MemberLevel.pro);
    expectExpiryWithin(first?.proExpiresAt ?? null, tenDays);
    const expiry = first?.proExpiresAt?.getTime() ?? 0;
    expect((await grant(5, 'pro'))?.proExpiresAt).toEqual(new Date(expiry + 5 * DAY_MS));
    expect((await grant(1, 'superPro'))?.memberLevel).toBe(MemberLevel.superPro);
    // A pro purchase on top of a running super pro membership extends it, still super pro.
    expect(await grant(4, 'pro')).toEqual({
      memberLevel: MemberLevel.superPro,
      proExpiresAt: new Date(expiry + 10 * DAY_MS),
    });
    expect(await events(user.id, 'grant')).toBe(4);
  });

  test('after an expiry, new days count from now', async () => {
    setClock(TEST_NOW);
    const { user } = await memberUser(deps, 'expired');
    const threeDays = await daysFromNow(3, () =>
      grantProDays(em(), { userId: user.id, days: 3, tier: 'pro', actor: 'test', action: 'grant' }),
    );
    expectExpiryWithin(threeDays.value?.proExpiresAt ?? null, threeDays);
  });
});

describe('what a member may buy', () => {
  test('a running super pro membership is extended only as super pro; a level without an end buys nothing', async () => {
    setClock(TEST_NOW);
    const tiers = async (kind: MemberKind) =>
      (await (await memberUser(deps, kind)).caller.membership.overview()).products.map((p) => p.tier);
    expect(await tiers('pro')).toEqual(['pro', 'pro', 'superPro']);
    expect(await tiers('superPro')).toEqual(['superPro']);
    expect(await tiers('proWithoutEnd')).toEqual([]);
    // Asked for anyway, a pro product is not sold to a super pro member.
    const superPro = await memberUser(deps, 'superPro');
    await expect(
      superPro.caller.membership.createOrder({ productId: 'pro-month', provider: 'stripe' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', cause: { messageKey: 'errors.productUnknown' } });
  });

  test('days granted to a level without an end leave it without an end (logged)', async () => {
    setClock(TEST_NOW);
    const { user } = await memberUser(deps, 'proWithoutEnd');
    const after = await grantProDays(em(), {
      userId: user.id,
      days: 31,
      tier: 'superPro',
      actor: 'test',
      action: 'grant',
    });
    expect(after).toEqual({ memberLevel: MemberLevel.pro, proExpiresAt: null });
    expect(await events(user.id, 'grant')).toBe(1);
  });
});

describe('orders', () => {
  test('ten notifications of one payment at once grant its days exactly once', async () => {
    setClock(TEST_NOW);
    const { user } = await signedInUser(deps);
    const id = await unpaidOrder(user.id);
    const paidDays = await daysFromNow(31, () =>
      Promise.all(Array.from({ length: 10 }, () => markOrderPaid(em(), id, 'order:stripe', 'pi_1'))),
    );
    expect(paidDays.value.filter(Boolean)).toHaveLength(1);
    const after = await userRow(user.id);
    expectExpiryWithin(after.proExpiresAt ?? null, paidDays);
    expect(await events(user.id, 'orderPaid')).toBe(1);
    expect(await getOrder(em(), after, id)).toMatchObject({ state: 'paid', checkout: null });
  });

  test('a refund takes the days back; a refund seen before the payment grants nothing ever', async () => {
    setClock(TEST_NOW);
    const { user } = await signedInUser(deps);
    const paid = await unpaidOrder(user.id, { proDays: 31 });
    await markOrderPaid(em(), paid, 'order:stripe');
    expect(await markOrderRefunded(em(), paid, 'order:stripe')).toBe(true);
    expect(await markOrderRefunded(em(), paid, 'order:stripe')).toBe(false);
    const refunded = await userRow(user.id);
    expect(refunded.memberLevel).toBe(MemberLevel.free);

    const early = await unpaidOrder(user.id);
    expect(await markOrderRefunded(em(), early, 'order:stripe')).toBe(true);
    expect(await markOrderPaid(em(), early, 'order:stripe')).toBe(false);
    expect((await userRow(user.id)).memberLevel).toBe(MemberLevel.free);
    expect(await events(user.id, 'orderPaid')).toBe(1);
  });

  test('unpaid orders close after two hours; paid ones stay paid', async () => {
    setClock(TEST_NOW);
    const { user } = await signedInUser(deps);
    const old = new Date(clock.now().getTime() - 3 * HOUR_MS);
    const stale = await unpaidOrder(user.id, { createdAt: old });
    const paid = await unpaidOrder(user.id, { createdAt: old });
    await markOrderPaid(em(), paid, 'order:stripe');
    const fresh = await unpaidOrder(user.id);
    await closeStaleOrders(em());
    const states = Object.fromEntries(
      (await em().find(Order, { user: user.id })).map((order) => [order.id, order.state]),
    );
    expect(states).toEqual({ [stale]: 'closed', [paid]: 'paid', [fresh]: 'created' });
  });

  test('the list pages newest first; another user’s order is not found', async () => {
    setClock(TEST_NOW);
    const { user } = await signedInUser(deps);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      setClock(new Date(Date.parse(TEST_NOW) + i * 60_000));
      ids.push(await unpaidOrder(user.id));
    }
    const owner = await userRow(user.id);
    const first = await listOrders(em(), owner, { limit: 3 });
    const second = await listOrders(em(), owner, { cursor: first.nextCursor, limit: 3 });
    expect([...first.items, ...second.items].map((o) => o.id)).toEqual(ids.reverse());
    expect(second.nextCursor).toBeNull();
    const stranger = await signedInUser(deps);
    await expect(getOrder(em(), stranger.user, ids[0] ?? '')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(listOrders(em(), owner, { cursor: 'bm90LWEtY3Vyc29y', limit: 3 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});

describe('the membership job', () => {
  test('lapsed members become free (logged), with "Membership expired" kept by their expiry', async () => {
    setClock(TEST_NOW);
    const lapsed = await memberUser(deps, 'pro');
    const running = await memberUser(deps, 'superPro');
    setClock(new Date(clock.now().getTime() + 31 * DAY_MS));
    await em().nativeUpdate(
      User,
      { id: running.user.id },
      { proExpiresAt: new Date(clock.now().getTime() + DAY_MS) },
    );
    // Run twice: the second finds nothing more of these two (others' members may lapse meanwhile).
    await downgradeExpiredMembers(em());
    await downgradeExpiredMembers(em());
    expect((await userRow(lapsed.user.id)).memberLevel).toBe(MemberLevel.free);
    expect((await userRow(running.user.id)).memberLevel).toBe(MemberLevel.superPro);
    expect(await events(lapsed.user.id, 'downgraded')).toBe(1);
    expect(toMe(await userRow(lapsed.user.id)).membership).toBe('expired');
  });

  test('three days before the end, one reminder mail, in the member’s language', async () => {
    setClock(TEST_NOW);
    const member = await memberUser(deps, 'pro');
    await em().nativeUpdate(User, { id: member.user.id }, { language: 'zh-CN' });
    const to = member.user.email ?? '';
    // Other tests' members may fall due too: this member's reminders are counted by its log.
    const reminded = () => events(member.user.id, 'reminded');
    // 30 days left: nothing yet.
    await remindExpiringMembers(em(), reminderDeps());
    expect(await reminded()).toBe(0);
    setClock(new Date(clock.now().getTime() + 28 * DAY_MS));
    const seen = smtp.messages.length;
    await remindExpiringMembers(em(), reminderDeps());
    await remindExpiringMembers(em(), reminderDeps());
    expect(await reminded()).toBe(1);
    const mail = await smtp.next(to, seen);
    expect(mail.subject).toBe(translator('zh-CN')('mail.proReminderSubject', { count: 2 }));
    // Quoted-printable may fold the link.
    expect(mail.raw.replace(/=\r?\n/g, '')).toContain('https://margin.example/personSetting/membership');
    // Renewed, the next expiry gets its own reminder.
    await grantProDays(em(), {
      userId: member.user.id,
      days: 1,
      tier: 'pro',
      actor: 'test',
      action: 'grant',
    });
    await remindExpiringMembers(em(), reminderDeps());
    expect(await reminded()).toBe(2);
  });
});

describe('npm run admin', () => {
  const root = path.resolve(import.meta.dirname, '../..');

  function admin(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['server/cli/admin.ts', ...args], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: deps.config.databaseUrl, LOG_LEVEL: 'silent', REGION: 'euro' },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out, err }));
    });
  }

  test('grants, lists, refunds and revokes, each logged with the operator', async () => {
    const { user } = await signedInUser(deps);
    const email = user.email ?? '';

    const granted = await admin('grant', email, '30', '--remark', 'support ticket 12');
    expect(granted.code, granted.err).toBe(0);
    const orderId = /order (mo[0-9a-z]{22})/.exec(granted.out)?.[1] ?? '';
    expect(orderId).not.toBe('');
    expect((await userRow(user.id)).memberLevel).toBe(MemberLevel.pro);
    const order = await em().findOneOrFail(Order, orderId);
    expect(order).toMatchObject({
      source: 'admin',
      state: 'paid',
      proDays: 30,
      currency: 'EUR',
      remark: 'support ticket 12',
    });

    const listed = await admin('orders', user.accountId);
    expect(listed.out).toContain(`${orderId}\tpaid\tadmin`);

    expect((await admin('refund', orderId)).out).toContain('refunded');
    expect((await userRow(user.id)).memberLevel).toBe(MemberLevel.free);
    expect((await admin('refund', orderId)).out).toContain('unchanged');

    await admin('grant', email, '10', '--tier', 'superPro');
    expect((await admin('revoke', email, '4')).code).toBe(0);
    const after = await userRow(user.id);
    expect(after.memberLevel).toBe(MemberLevel.superPro);

    const log = await em().find(MembershipEvent, { user: user.id }, { orderBy: { id: 'asc' } });
    expect(log.map((e) => e.action)).toEqual(['orderPaid', 'orderRefunded', 'orderPaid', 'revoke']);
    expect(log.every((e) => e.actor.startsWith('admin:cli:'))).toBe(true);
  });

  test('bad arguments and unknown users change nothing and say why', async () => {
    const { user } = await signedInUser(deps);
    expect((await admin('grant', user.email ?? '', 'many')).code).toBe(2);
    expect((await admin('grant', user.email ?? '', '5', '--tier', 'gold')).code).toBe(2);
    const unknown = await admin('grant', 'nobody@example.test', '5');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('not found');
    expect((await admin('refund', 'mo0000000000000000000000')).code).toBe(2);
    expect(await em().count(MembershipEvent, { user: user.id })).toBe(0);
  });
});
