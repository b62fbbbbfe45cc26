import { useTranslation } from 'react-i18next';

/** `/daily`: today's note and earlier ones. Kept mounted. */
export function DailyPage() {
  const { t } = useTranslation();
  return (
    <section className="page" data-testid="daily">
      <header className="page-header">
        <h1>{t('daily.title')}</h1>
      </header>
      <p className="muted">{t('daily.empty')}</p>
    </section>
  );
}

/** `/postdaily`: compose a quick entry. Kept mounted. */
export function PostDailyPage() {
  const { t } = useTranslation();
  return (
    <section className="page" data-testid="postdaily">
      <header className="page-header">
        <h1>{t('daily.postTitle')}</h1>
      </header>
      <p className="muted">{t('daily.empty')}</p>
    </section>
  );
}
