import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LocalTime } from '../../components/LocalTime.tsx';
import { useTRPC } from '../../trpc.ts';

/** The user's own latest messages under the form, so they can see what they already told us. */
export function EarlierFeedback() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const list = useQuery(trpc.feedback.list.queryOptions());
  if (!list.data?.length) return null;
  return (
    <section className="settings-section" aria-labelledby="feedback-earlier-title">
      <h2 id="feedback-earlier-title" className="section-title">
        {t('feedback.earlierTitle')}
      </h2>
      <ul className="feedback-earlier" data-testid="feedback-earlier">
        {list.data.map((feedback) => (
          <li key={feedback.id} className="feedback-earlier-item">
            <div className="feedback-earlier-head">
              <span className="badge">{t(`feedback.kind.${feedback.kind}`)}</span>
              <LocalTime className="muted" date={feedback.createdAt} style="dateTime" />
            </div>
            <p className="feedback-earlier-message" dir="auto">
              {feedback.message}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
