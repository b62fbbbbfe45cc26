import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { ViewStyle } from '../../../src/enums.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';

/**
 * The spec's `?nx={note}&vs={view}` deep link: find the note's page and open the reader there,
 * scrolled to the note (`pi` + `nx`); a daily note opens /daily.
 */
export default function NoteLinkResolver({
  noteId,
  viewStyle,
}: {
  noteId: string;
  viewStyle: ViewStyle | null;
}) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const location = useQuery({ ...trpc.highlights.locate.queryOptions({ id: noteId }), retry: false });
  useEffect(() => {
    if (location.data?.pageId) {
      const params = new URLSearchParams({
        pi: location.data.pageId,
        vs: viewStyle ?? 'article',
        nx: noteId,
      });
      navigate(`/?${params.toString()}`, { replace: true });
    } else if (location.data) navigate('/daily', { replace: true });
    else if (location.error) {
      notify.error(location.error);
      navigate('/', { replace: true });
    }
  }, [location.data, location.error, navigate, noteId, viewStyle]);
  return (
    <p className="muted" data-testid="note-link-resolving">
      {t('app.loading')}
    </p>
  );
}
