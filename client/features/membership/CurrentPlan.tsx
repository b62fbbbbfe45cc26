import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isolate } from '../../../src/rules/bidi.ts';
import { remainingProDays } from '../../../src/rules/member-level.ts';
import type { MembershipOverview } from '../../../src/schemas/membership.ts';
import { formatDate } from '../../lib/format-date.ts';
import { useTRPC } from '../../trpc.ts';
import { Countdown } from './Countdown.tsx';
import { PLAN_NAME_KEY } from './plan-names.ts';
import { hasPro } from './use-membership-on.ts';

/** What PRO adds to the free plan, from the plan table. */
function ProPitch({ overview }: { overview: MembershipOverview }) {
  const { t } = useTranslation();
  const added = overview.features.pro.filter((f) => !overview.features.free.includes(f));
  if (added.length === 0) return null;
  return (
    <div className="current-plan-pitch">
      <p>{t('membership.pitch')}</p>
      <ul className="pitch-features">
        {added.map((feature) => (
          <li key={feature}>{t(`membership.feature.${feature}`)}</li>
        ))}
      </ul>
    </div>
  );
}

/** What the user has now: the level, until when, the days left and a live countdown to the end. */
export function CurrentPlan({ overview }: { overview: MembershipOverview }) {
  const { t, i18n } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { state, proExpiresAt } = overview;
  const active = hasPro(state) && proExpiresAt !== null;
  // At the end of the countdown the server says what the membership has become.
  const ended = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.membership.overview.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
  }, [queryClient, trpc]);
  return (
    <section
      className="current-plan"
      data-state={state}
      aria-labelledby="current-plan-title"
      data-testid="current-plan"
    >
      <div className="current-plan-text">
        <h2 id="current-plan-title" className="eyebrow">
          {t('membership.yourPlan')}
        </h2>
        <p className={`current-plan-name plan-${state}`} data-testid="current-plan-name">
          {t(PLAN_NAME_KEY[state])}
        </p>
        {active && (
          <p className="current-plan-facts">
            <span data-testid="days-left">
              {t('membership.daysLeft', { count: remainingProDays(proExpiresAt, new Date()) })}
            </span>
            <span data-testid="plan-expiry">
              {t('membership.validUntil', { date: isolate(formatDate(proExpiresAt, i18n.language)) })}
            </span>
          </p>
        )}
        {hasPro(state) && proExpiresAt === null && (
          <p className="current-plan-facts">
            <span>{t('membership.noEnd')}</span>
          </p>
        )}
        {state === 'expired' && (
          <p className="current-plan-facts">
            <span className="plan-expired" data-testid="days-left">
              {t('membership.expired')}
            </span>
            {proExpiresAt && (
              <span data-testid="plan-expiry">
                {t('membership.endedOn', { date: isolate(formatDate(proExpiresAt, i18n.language)) })}
              </span>
            )}
          </p>
        )}
        {!hasPro(state) && <ProPitch overview={overview} />}
      </div>
      {active && <Countdown until={proExpiresAt} onEnd={ended} />}
    </section>
  );
}
