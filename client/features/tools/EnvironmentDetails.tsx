import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { environmentFields, type FeedbackEnvironment } from '../../../src/schemas/feedback.ts';

/** What the feedback form attaches, folded away until asked for. */
export function EnvironmentDetails({ environment }: { environment: FeedbackEnvironment }) {
  const { t } = useTranslation();
  return (
    <details className="feedback-environment" data-testid="feedback-environment">
      <summary>{t('feedback.environmentShow')}</summary>
      <dl className="details details-wrap">
        {environmentFields(environment).map(({ name, labelKey, value }) => (
          <Fragment key={name}>
            <dt>{t(labelKey)}</dt>
            <dd dir="ltr">{value}</dd>
          </Fragment>
        ))}
      </dl>
      {!environment.extensionMarket && !environment.extensionVersion && (
        <p className="field-hint">{t('feedback.envNoExtension')}</p>
      )}
    </details>
  );
}
