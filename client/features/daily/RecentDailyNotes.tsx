import '../../styles/daily.css';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useTRPC } from '../../trpc.ts';

const DAY_MS = 86_400_000;

/** The 24 Hours view lists daily notes written in the last day above the notes. */
export default function RecentDailyNotes() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { data } = useQuery(trpc.daily.list.queryOptions({ limit: 3 }));
  const recent = (data?.items ?? []).filter((d) => Date.now() - d.updatedAt.getTime() < DAY_MS);
  if (!recent.length) return null;
  return (
    <section className="recent-daily" aria-label={t('daily.title')} data-testid="recent-daily">
      <h2>{t('daily.title')}</h2>
      <ul>
        {recent.map((day) => (
          <li key={day.id}>
            <Link href="/daily" className="recent-daily-item">
              <strong>{day.date}</strong> <span className="muted">{day.excerpt}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
