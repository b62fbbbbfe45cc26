import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { onModEnter } from '../../lib/keys.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import { useMe } from '../auth/session.ts';
import { DailyEntries } from './DailyView.tsx';
import { bumpPostCount, readPostCount } from './post-counter.ts';
import '../../styles/daily.css';

const MarkdownPreview = lazy(() => import('./MarkdownPreview.tsx'));

/** `/postdaily`: a quick composer appending timed entries to today's note, which shows below. */
export default function PostDailyView() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: me } = useMe();
  const accountId = me?.accountId;
  const composerId = useId();
  const [text, setText] = useState('');
  const [postedToday, setPostedToday] = useState(() => (accountId ? readPostCount(accountId) : 0));
  const [countedFor, setCountedFor] = useState(accountId);
  if (countedFor !== accountId) {
    setCountedFor(accountId);
    setPostedToday(accountId ? readPostCount(accountId) : 0);
  }
  const today = useQuery(trpc.daily.get.queryOptions({}));
  const append = useMutation(
    trpc.daily.append.mutationOptions({
      onSuccess: (note) => {
        setText('');
        if (accountId) setPostedToday(bumpPostCount(accountId));
        queryClient.setQueryData(trpc.daily.get.queryKey({}), (old) => (old ? { ...old, ...note } : old));
        void queryClient.invalidateQueries({ queryKey: trpc.daily.pathKey() });
        notify.success('toast.sendSuccess');
      },
    }),
  );

  function post(event?: FormEvent) {
    event?.preventDefault();
    if (!text.trim() || append.isPending) return;
    append.mutate({ text });
  }

  const note = today.data;
  return (
    <div className="postdaily">
      <form className="daily-composer" onSubmit={post} data-testid="postdaily-form">
        <label htmlFor={composerId} className="visually-hidden">
          {t('daily.composerLabel')}
        </label>
        <textarea
          id={composerId}
          className="daily-composer-input"
          value={text}
          rows={4}
          dir="auto"
          placeholder={t('daily.composerPlaceholder')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onModEnter(() => post())}
          data-testid="postdaily-input"
        />
        <div className="daily-composer-bar">
          <span className="muted daily-count" data-testid="postdaily-count" data-count={postedToday}>
            {t('daily.postedToday', { count: postedToday })}
          </span>
          <span className="muted daily-shortcut" aria-hidden="true">
            {t('daily.postShortcut')}
          </span>
          <button
            type="submit"
            className="button button-primary"
            disabled={!text.trim() || append.isPending}
            aria-keyshortcuts="Control+Enter Meta+Enter"
            data-testid="postdaily-submit"
          >
            {t('daily.post')}
          </button>
        </div>
      </form>
      <section className="daily-today" aria-labelledby={`${composerId}-today`} data-testid="postdaily-today">
        <h2 id={`${composerId}-today`} className="daily-section-title">
          {t('daily.todayNote')}
        </h2>
        {!note ? (
          <p className="muted">{t('app.loading')}</p>
        ) : note.text.trim() ? (
          <Suspense fallback={<p className="muted">{t('app.loading')}</p>}>
            <MarkdownPreview text={note.text} className="daily-preview" testId="postdaily-note" />
          </Suspense>
        ) : (
          <p className="muted">{t('daily.nothingToday')}</p>
        )}
        {note && <DailyEntries entries={note.entries} />}
      </section>
    </div>
  );
}
