import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { ViewStyle } from '../../../src/enums.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import { highlightPath } from './reader-links.ts';

/**
 * The spec's `?nx={highlight}&vs={view}` deep link: find the highlight's note and open the reader
 * there, scrolled to the highlight (`pi` + `nx`); a daily note's text opens /daily.
 */
export default function HighlightLinkResolver({
  highlightId,
  viewStyle,
}: {
  highlightId: string;
  viewStyle: ViewStyle | null;
}) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const location = useQuery({ ...trpc.highlights.locate.queryOptions({ id: highlightId }), retry: false });
  useEffect(() => {
    if (location.data?.noteId) {
      navigate(highlightPath(location.data.noteId, highlightId, viewStyle ?? undefined), { replace: true });
    } else if (location.data) navigate('/daily', { replace: true });
    else if (location.error) {
      notify.error(location.error);
      navigate('/', { replace: true });
    }
  }, [location.data, location.error, navigate, highlightId, viewStyle]);
  return (
    <p className="muted" data-testid="highlight-link-resolving">
      {t('app.loading')}
    </p>
  );
}
