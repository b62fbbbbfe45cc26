import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Me } from '../../../src/schemas/auth.ts';
import { MEMBERSHIP_PATH } from '../../lib/errors.ts';
import { PLAN_NAME_KEY } from './plan-names.ts';
import { hasPro } from './use-membership-on.ts';
import '../../styles/membership.css';

const ACTION_KEY: Record<Me['membership'], string> = {
  free: 'membership.upgrade',
  pro: 'membership.extend',
  superPro: 'membership.extend',
  expired: 'membership.renew',
};

/** The plan in one line: its name and "%s days left", or "Membership expired"; and where to change it. */
export function PlanStanding({ me }: { me: Me }) {
  const { t } = useTranslation();
  const expired = me.membership === 'expired';
  return (
    <span className="plan-standing">
      <span className={`plan plan-${me.membership}`} data-testid="plan">
        {expired ? t('membership.expired') : t(PLAN_NAME_KEY[me.membership])}
      </span>
      {hasPro(me.membership) && me.proExpiresAt && (
        <span className="muted" data-testid="plan-days-left">
          {t('membership.daysLeft', { count: me.remainingProDays })}
        </span>
      )}
      <Link href={MEMBERSHIP_PATH} className="plan-link">
        {t(ACTION_KEY[me.membership])}
      </Link>
    </span>
  );
}
