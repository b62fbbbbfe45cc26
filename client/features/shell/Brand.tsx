import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

/** The app's mark and name, linking home. */
export function Brand() {
  const { t } = useTranslation();
  return (
    <Link href="/" className="brand">
      <img src="/icon.svg" alt="" width={28} height={28} />
      <span>{t('app.name')}</span>
    </Link>
  );
}
