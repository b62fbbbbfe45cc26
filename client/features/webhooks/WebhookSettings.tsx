import { useTranslation } from 'react-i18next';

/** The webhook endpoints section of the "API and daily note" settings page. */
export function WebhookSettings() {
  const { t } = useTranslation();
  return (
    <section className="settings-section" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title" className="section-title">
        {t('webhooks.title')}
      </h2>
    </section>
  );
}
