import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** What `Loaded` reads of a query (plain or infinite). */
interface QueryLike<D> {
  isError: boolean;
  data: D | undefined;
}

/**
 * A query's data once loaded: until then, that it is loading or that it failed. `select` picks
 * what is shown (such as the items of every page); when that is an empty list, `empty` is shown
 * instead of `children`.
 */
export function Loaded<D, V = D>({
  query,
  select,
  empty,
  children,
}: {
  query: QueryLike<D>;
  select?(data: D): V;
  empty?: ReactNode;
  children(data: V): ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isError) return <p className="notice notice-warning">{t('toast.loadingFailed')}</p>;
  if (!query.data) return <p className="muted">{t('app.loading')}</p>;
  const shown = (select ? select(query.data) : query.data) as V;
  if (empty !== undefined && Array.isArray(shown) && shown.length === 0) return empty;
  return children(shown);
}
