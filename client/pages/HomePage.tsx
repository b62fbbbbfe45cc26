import { useQuery } from '@tanstack/react-query';
import { Activity, lazy, Suspense, useCallback, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { parseDeepLink } from '../../src/deep-link.ts';
import { Icon } from '../components/icons/Icon.tsx';
import { SaveUrlForm } from '../features/clip/SaveUrlForm.tsx';
import { navEntry } from '../features/library/nav-entries.ts';
import { PageList } from '../features/library/PageList.tsx';
import { readerPath } from '../features/library/PageListItem.tsx';
import { useTRPC } from '../trpc.ts';
import '../styles/library.css';

const Reader = lazy(() => import('../features/reader/Reader.tsx').then((m) => ({ default: m.Reader })));

/** History state marking a reader entry pushed from the list, so Back can simply go back. */
const FROM_LIST = { marginFromList: true } as const;

function cameFromList(): boolean {
  return (window.history.state as typeof FROM_LIST | null)?.marginFromList === true;
}

/** `/`: the notes list ("mine"), or the reader for `?pi=…`. It stays mounted while the user is elsewhere. */
export function HomePage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const search = useSearch();
  const [, navigate] = useLocation();
  const entry = navEntry(new URLSearchParams(search).get('nav'));
  const deepLink = parseDeepLink(search);
  const readerPageId = deepLink?.kind === 'page' ? deepLink.pageId : null;
  const { data: me } = useQuery(trpc.auth.me.queryOptions());

  // The list keeps its place: remember the scroll position on opening a page, restore it on return.
  const listScroll = useRef(0);
  const openPage = useCallback(
    (pageId: string) => {
      listScroll.current = window.scrollY;
      navigate(readerPath(pageId), { state: FROM_LIST });
    },
    [navigate],
  );
  const closeReader = useCallback(() => {
    if (cameFromList()) window.history.back();
    else navigate('/', { replace: true });
  }, [navigate]);
  useLayoutEffect(() => {
    if (!readerPageId) window.scrollTo(0, listScroll.current);
  }, [readerPageId]);

  return (
    <section
      className="page"
      data-testid="home"
      data-deep-link={deepLink ? JSON.stringify(deepLink) : undefined}
    >
      {me === null && (
        <>
          <header className="page-header">
            <h1>{t(entry.labelKey)}</h1>
          </header>
          <div className="empty-state">
            <Icon name={entry.icon} size={40} />
            <h2>{t('home.emptyTitle')}</h2>
            <p>{t('home.signInPrompt')}</p>
            <Link href="/login" className="button button-primary">
              {t('nav.login')}
            </Link>
          </div>
        </>
      )}
      {me && readerPageId && (
        <Suspense fallback={<p className="muted">{t('app.loading')}</p>}>
          <Reader key={readerPageId} pageId={readerPageId} onBack={closeReader} />
        </Suspense>
      )}
      {me && (
        <Activity mode={readerPageId ? 'hidden' : 'visible'}>
          <header className="page-header">
            <h1>{t(entry.labelKey)}</h1>
          </header>
          <SaveUrlForm />
          <PageList onOpen={openPage} />
        </Activity>
      )}
    </section>
  );
}
