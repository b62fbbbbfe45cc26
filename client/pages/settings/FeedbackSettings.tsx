import { useTranslation } from 'react-i18next';
import { EarlierFeedback } from '../../features/tools/EarlierFeedback.tsx';
import { FeedbackForm } from '../../features/tools/FeedbackForm.tsx';
import '../../features/tools/tools.css';

/** /personSetting/feedback: a message to the people who run Margin, and the ones sent before. */
export function FeedbackSettings() {
  const { t } = useTranslation();
  return (
    <div className="settings-stack tools-page">
      <section className="settings-section">
        <p className="muted">{t('feedback.intro')}</p>
        <FeedbackForm />
      </section>
      <EarlierFeedback />
    </div>
  );
}
