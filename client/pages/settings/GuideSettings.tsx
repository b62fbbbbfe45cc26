import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useTheme } from '../../features/theme/theme-store.ts';
import { GUIDE_IMAGE_SIZE, GUIDE_STEPS, guideImagePath } from '../../features/tools/guide-steps.ts';
import '../../features/tools/tools.css';

/**
 * /personSetting/guide: getting started in six steps, each with a screenshot of the app in the
 * theme it is shown in (loaded as it scrolls into view) and a link to where the step happens.
 */
export function GuideSettings() {
  const { t } = useTranslation();
  const { shown } = useTheme();
  return (
    <div className="settings-stack tools-page">
      <p className="muted">{t('guide.intro')}</p>
      <ol className="guide-steps" data-testid="guide-steps">
        {GUIDE_STEPS.map((step, index) => {
          const src = guideImagePath(step.id, shown);
          const titleId = `guide-step-${step.id}`;
          return (
            <li key={step.id} className="guide-step" aria-labelledby={titleId} data-step={step.id}>
              <div className="guide-step-text">
                <span className="guide-step-number" aria-hidden="true">
                  {index + 1}
                </span>
                <div>
                  <h2 id={titleId} className="section-title">
                    {t(`guide.steps.${step.id}.title`)}
                  </h2>
                  <p>{t(`guide.steps.${step.id}.body`)}</p>
                  <Link href={step.href} className="guide-step-link">
                    {t(`guide.steps.${step.id}.action`)}
                  </Link>
                </div>
              </div>
              <a className="guide-shot" href={src} target="_blank" rel="noopener" title={t('guide.fullSize')}>
                <img
                  src={src}
                  width={GUIDE_IMAGE_SIZE.width}
                  height={GUIDE_IMAGE_SIZE.height}
                  loading="lazy"
                  decoding="async"
                  alt={t(`guide.steps.${step.id}.alt`)}
                />
              </a>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
