import { useTranslation } from 'react-i18next';

/** Everything as Markdown in one .zip, from the server's export endpoint. */
export function ExportLink() {
  const { t } = useTranslation();
  return (
    <section className="settings-section" aria-labelledby="export-title">
      <h2 id="export-title" className="section-title">
        {t('sync.exportTitle')}
      </h2>
      <p className="muted">{t('sync.exportHint')}</p>
      <div>
        <a className="button" href="/api/export/markdown.zip" download data-testid="export-zip">
          {t('sync.exportLink')}
        </a>
      </div>
    </section>
  );
}
