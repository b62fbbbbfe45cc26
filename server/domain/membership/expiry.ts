import type { EntityManager } from '@mikro-orm/postgresql';
import { DAY_MS } from '../../../src/constants.ts';
import { MemberLevel } from '../../../src/enums.ts';
import { remainingProDays } from '../../../src/rules/member-level.ts';
import { clock } from '../../clock.ts';
import { translator } from '../../i18n.ts';
import { enqueue, type Queues } from '../../queue.ts';
import { UPGRADE_PATH } from './gate.ts';
import { logMembership, writeMembership } from './grants.ts';

/** The reminder goes out this long before a membership ends. */
const REMINDER_BEFORE_MS = 3 * DAY_MS;

const ACTOR = 'job:membership';

/**
 * Members whose PRO time has run out become free (the expiry stays, so they are shown
 * "Membership expired"); each change is logged. Idempotent.
 */
export async function downgradeExpiredMembers(em: EntityManager, now = clock.now()): Promise<number> {
  return em.transactional(async (tx) => {
    const lapsed = await writeMembership(tx, { kind: 'lapse' }, now);
    for (const member of lapsed) {
      await logMembership(tx, {
        userId: member.userId,
        actor: ACTOR,
        action: 'downgraded',
        detail: `level ${member.previousLevel}`,
      });
    }
    return lapsed.length;
  });
}

/**
 * Mails every member whose PRO time ends within three days, once per expiry: the row is marked
 * with the expiry it was reminded of.
 */
export async function remindExpiringMembers(
  em: EntityManager,
  deps: { queues: Queues; publicUrl: string | undefined },
  now = clock.now(),
): Promise<number> {
  const due: { id: string | number; email: string; language: string | null; pro_expires_at: Date }[] =
    await em.execute(
      `select "id", "email", "language", "pro_expires_at" from "user"
       where "member_level" <> ${MemberLevel.free} and "email" is not null
         and "pro_expires_at" > ? and "pro_expires_at" <= ?
         and "pro_reminded_for" is distinct from "pro_expires_at"`,
      [now, new Date(now.getTime() + REMINDER_BEFORE_MS)],
    );
  for (const user of due) {
    const expiresAt = new Date(user.pro_expires_at);
    const t = translator(user.language);
    const days = remainingProDays(expiresAt, now);
    // The job key carries the expiry, so a run retried before the mark below mails nothing twice.
    await enqueue(deps.queues, 'mail', {
      key: `pro-reminder-${user.id}-${expiresAt.getTime()}`,
      userId: Number(user.id),
      to: user.email,
      subject: t('mail.proReminderSubject', { count: days }),
      text: [t('mail.proReminderBody', { count: days }), `${deps.publicUrl ?? ''}${UPGRADE_PATH}`].join(
        '\n\n',
      ),
    });
    await em.transactional(async (tx) => {
      await tx.execute(`update "user" set "pro_reminded_for" = ? where "id" = ?`, [expiresAt, user.id]);
      await logMembership(tx, { userId: Number(user.id), actor: ACTOR, action: 'reminded', days });
    });
  }
  return due.length;
}
