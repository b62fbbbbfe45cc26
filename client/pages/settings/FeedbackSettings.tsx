import { useTranslation } from 'react-i18next';
import type { Me } from '../../../src/schemas/auth.ts';

/** /personSetting/feedback: not built yet. */
export function FeedbackSettings(_props: { me: Me }) {
  const { t } = useTranslation();
  return <p className="muted">{t('settings.notYet')}</p>;
}
