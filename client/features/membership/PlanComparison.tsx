import { useTranslation } from 'react-i18next';
import type { MemberTier } from '../../../src/enums.ts';
import {
  FEATURES,
  type Feature,
  type MembershipOverview,
  type Quota,
} from '../../../src/schemas/membership.ts';
import { PLAN_NAME_KEY, TIERS, tierOf } from './plan-names.ts';

/** Each limit belongs to a feature: a level without the feature has no such limit to show. */
const QUOTA_FEATURE: Record<Quota, Feature> = {
  apiTokens: 'openApi',
  apiRequestsPerMinute: 'openApi',
  webhookEndpoints: 'webhooks',
};

function Included({ yes }: { yes: boolean }) {
  const { t } = useTranslation();
  return yes ? (
    <span className="compare-yes" data-included="yes">
      <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
        <path
          d="M3 8.5 6.5 12 13 4.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="visually-hidden">{t('membership.included')}</span>
    </span>
  ) : (
    <span className="compare-no" data-included="no">
      <span aria-hidden="true">–</span>
      <span className="visually-hidden">{t('membership.notIncluded')}</span>
    </span>
  );
}

/** What free, PRO and super PRO each get, by feature and limit; the user's own column marked. */
export function PlanComparison({ overview }: { overview: MembershipOverview }) {
  const { t, i18n } = useTranslation();
  const mine = tierOf(overview.state);
  const number = new Intl.NumberFormat(i18n.language);
  const quotas = Object.keys(QUOTA_FEATURE) as Quota[];
  const cellClass = (tier: MemberTier) => (tier === mine ? 'compare-mine' : undefined);
  return (
    <section className="settings-section" aria-labelledby="compare-title">
      <h2 id="compare-title" className="section-title">
        {t('membership.compareTitle')}
      </h2>
      <div className="compare-wrap">
        <table className="compare" data-testid="plan-comparison">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t('membership.featureColumn')}</span>
              </th>
              {TIERS.map((tier) => (
                <th key={tier} scope="col" className={cellClass(tier)} data-tier={tier}>
                  {t(PLAN_NAME_KEY[tier])}
                  {tier === mine && <span className="compare-current">{t('membership.current')}</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {FEATURES.map((feature) => (
              <tr key={feature} data-feature={feature}>
                <th scope="row">{t(`membership.feature.${feature}`)}</th>
                {TIERS.map((tier) => (
                  <td key={tier} className={cellClass(tier)}>
                    <Included yes={overview.features[tier].includes(feature)} />
                  </td>
                ))}
              </tr>
            ))}
            {quotas.map((quota) => (
              <tr key={quota} data-quota={quota}>
                <th scope="row">{t(`membership.quota.${quota}`)}</th>
                {TIERS.map((tier) => (
                  <td key={tier} className={cellClass(tier)}>
                    {overview.features[tier].includes(QUOTA_FEATURE[quota]) ? (
                      <span className="compare-number">{number.format(overview.quotas[tier][quota])}</span>
                    ) : (
                      <Included yes={false} />
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
