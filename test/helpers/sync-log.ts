import type { AppDeps } from '../../server/deps.ts';
import { waitFor } from './wait.ts';

/**
 * Waits until every transaction running now, in any database of the cluster, has ended. The
 * export engine reads only changes older than every running transaction (transaction ids are
 * cluster-wide), so without this another test file's open transaction could hold a change back
 * or have a first sync's walk begin before this file's last writes.
 */
export async function logSettled(deps: AppDeps): Promise<void> {
  const em = deps.orm.em.fork();
  const [now] = await em.execute<{ xmax: string }[]>(
    'select pg_snapshot_xmax(pg_current_snapshot())::text as xmax',
  );
  await waitFor(
    async () => {
      const [row] = await em.execute<{ done: boolean }[]>(
        'select pg_snapshot_xmin(pg_current_snapshot()) >= ?::xid8 as done',
        [now?.xmax ?? '0'],
      );
      return row?.done ? true : undefined;
    },
    30_000,
    'older transactions to end',
  );
}
