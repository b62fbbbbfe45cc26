import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { MEMBERSHIP_PATH } from '../../lib/errors.ts';
import { bumpStoredCount, readStoredCount } from '../../lib/stored-daily-counter.ts';
import { useMe } from '../auth/session.ts';
import { hasPro, useMembershipSwitch } from './use-membership-on.ts';
import '../../styles/membership.css';

interface TipProps {
  /** The line saying what PRO opens on this screen. */
  tipKey: string;
  tipParams?: Record<string, string>;
}

/**
 * The badge, and the tip when today's count allows: decided when the screen opens and counted
 * then, so a user sees at most `perDay` tips a day however often they come back (the spec's
 * per-day counter, per account in this browser).
 */
function ProBadgeAndTip(props: TipProps & { accountId: string; perDay: number; expired: boolean }) {
  const { t } = useTranslation();
  const key = `margin.proTips.${props.accountId}`;
  const [tip] = useState(() => readStoredCount(key) < props.perDay);
  const counted = useRef(false);
  useEffect(() => {
    if (!tip || counted.current) return;
    counted.current = true;
    bumpStoredCount(key);
  }, [tip, key]);
  return (
    <div className="pro-note" data-testid="pro-note">
      <Link
        href={MEMBERSHIP_PATH}
        className="pro-badge"
        data-testid="pro-badge"
        title={t('errors.onlyForPro')}
      >
        {t('account.planPro')}
      </Link>
      {tip && (
        <p className="pro-tip" data-testid="pro-tip">
          <span>{props.expired ? t('membership.expired') : t(props.tipKey, props.tipParams)}</span>{' '}
          <Link href={MEMBERSHIP_PATH}>
            {props.expired ? t('membership.renew') : t('membership.seePlans')}
          </Link>
        </p>
      )}
    </div>
  );
}

/**
 * On a PRO-only screen, while membership is on and the user is not PRO: a PRO badge leading to
 * the plans, and now and then a line saying what PRO opens here. Nothing with membership off.
 */
export function ProNote(props: TipProps) {
  const { data: me } = useMe();
  const membership = useMembershipSwitch();
  if (!me || !membership?.on || hasPro(me.membership)) return null;
  return (
    <ProBadgeAndTip
      {...props}
      key={me.accountId}
      accountId={me.accountId}
      perDay={membership.proTipsPerDay}
      expired={me.membership === 'expired'}
    />
  );
}
