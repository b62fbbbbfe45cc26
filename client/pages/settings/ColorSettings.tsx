import { useTranslation } from 'react-i18next';
import type { Me } from '../../../src/schemas/auth.ts';

/** /personSetting/color: not built yet. */
export function ColorSettings(_props: { me: Me }) {
  const { t } = useTranslation();
  return <p className="muted">{t('settings.notYet')}</p>;
}
