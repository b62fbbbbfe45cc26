import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

/** /404: no page chrome. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="not-found" data-testid="not-found">
      <p className="not-found-code">404</p>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <Link href="/" className="button button-primary">
        {t('notFound.home')}
      </Link>
    </main>
  );
}
