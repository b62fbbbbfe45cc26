import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { loginPathFor, useMe } from '../features/auth/session.ts';
import { useReportTimeZone } from '../features/daily/report-time-zone.ts';

// Each page loads only the editor it shows.
const DailyView = lazy(() => import('../features/daily/DailyView.tsx'));
const PostDailyView = lazy(() => import('../features/daily/PostDailyView.tsx'));

function DailyFrame({
  path,
  testId,
  titleKey,
  children,
}: {
  path: string;
  testId: string;
  titleKey: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  useReportTimeZone();
  return (
    <section className="page daily-page" data-testid={testId}>
      <header className="page-header">
        <h1>{t(titleKey)}</h1>
      </header>
      {me === null && (
        <div className="empty-state">
          <p>{t('daily.empty')}</p>
          <Link href={loginPathFor(path)} className="button button-primary">
            {t('nav.login')}
          </Link>
        </div>
      )}
      {me && <Suspense fallback={<p className="muted">{t('app.loading')}</p>}>{children}</Suspense>}
    </section>
  );
}

/** `/daily`: today's note and earlier ones. Kept mounted. */
export function DailyPage() {
  return (
    <DailyFrame path="/daily" testId="daily" titleKey="daily.title">
      <DailyView />
    </DailyFrame>
  );
}

/** `/postdaily`: compose a quick entry. Kept mounted. */
export function PostDailyPage() {
  return (
    <DailyFrame path="/postdaily" testId="postdaily" titleKey="daily.postTitle">
      <PostDailyView />
    </DailyFrame>
  );
}
