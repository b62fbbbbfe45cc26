import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DailyNote } from '../../../src/schemas/daily.ts';
import { LocalTime } from '../../components/LocalTime.tsx';
import { useTRPC } from '../../trpc.ts';
import { DailyEditor } from './DailyEditor.tsx';
import { DailyExport } from './DailyExport.tsx';
import { DailyTimeline } from './DailyTimeline.tsx';
import { useSendStrayDrafts } from './use-daily-note.ts';
import '../../styles/daily.css';

const MarkdownPreview = lazy(() => import('./MarkdownPreview.tsx'));

/** The day's extra entries ("move to a new daily note"), read-only. */
export function DailyEntries({ entries }: { entries: readonly Pick<DailyNote, 'id' | 'text'>[] }) {
  const { t } = useTranslation();
  if (entries.length === 0) return null;
  return (
    <section className="daily-entries" data-testid="daily-entries">
      <h2 className="daily-section-title">{t('daily.entries')}</h2>
      <Suspense fallback={<p className="muted">{t('app.loading')}</p>}>
        {entries.map((entry) => (
          <article key={entry.id} className="daily-entry" data-testid="daily-entry" data-entry-id={entry.id}>
            <MarkdownPreview text={entry.text} />
          </article>
        ))}
      </Suspense>
    </section>
  );
}

/** `/daily`: today's note (or a chosen day's) in the editor, the timeline and search beside it. */
export default function DailyView() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  useSendStrayDrafts();
  const todayQuery = useQuery(trpc.daily.get.queryOptions({}));
  const today = todayQuery.data?.date;
  const [picked, setPicked] = useState<string | null>(null);
  const pastDay = picked && picked !== today ? picked : null;
  const pastQuery = useQuery({ ...trpc.daily.get.queryOptions({ date: pastDay ?? '' }), enabled: !!pastDay });
  const date = pastDay ?? today;
  const day = pastDay ? pastQuery.data : todayQuery.data;

  return (
    <div className="daily-layout">
      <div className="daily-main">
        <div className="daily-day-head">
          <h2 className="daily-day-title" data-testid="daily-day-title">
            {!date ? (
              t('app.loading')
            ) : pastDay ? (
              <LocalTime day={date} />
            ) : (
              <>
                {t('common.today')} · <LocalTime day={date} />
              </>
            )}
          </h2>
          <div className="daily-day-actions">
            {pastDay && (
              <button
                type="button"
                className="button button-small"
                onClick={() => setPicked(null)}
                data-testid="daily-back-today"
              >
                {t('daily.backToToday')}
              </button>
            )}
            {date && <DailyExport date={date} />}
          </div>
        </div>
        {date ? (
          <DailyEditor key={date} date={date} day={day} label={t('daily.editorLabel')} />
        ) : (
          <p className="muted">{t('app.loading')}</p>
        )}
        <DailyEntries entries={day?.entries ?? []} />
      </div>
      <aside className="daily-aside">
        <DailyTimeline selected={date} today={today} onSelect={setPicked} />
      </aside>
    </div>
  );
}
