import type { AppDeps } from '../../server/deps.ts';
import { describeRange } from '../../src/anchoring/index.ts';
import { CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { makeClippedNote } from './notes.ts';
import type { signedInUser } from './users.ts';
import { waitFor } from './wait.ts';

type Signed = Awaited<ReturnType<typeof signedInUser>>;

/** A clipped note whose text holds the words `body text`, for `highlightBody`. */
export function noteWithBody(deps: AppDeps, user: Signed, title: string, tags: string[] = []) {
  return makeClippedNote(deps, user.user.id, { title, text: `${title}: the body text to highlight`, tags });
}

/** A highlight (colour slot 3) of the words `body text` in a note made by `noteWithBody`. */
export async function highlightBody(user: Signed, noteId: string, annotation?: string) {
  const { text } = await user.caller.notes.get({ id: noteId });
  const start = text.indexOf('body text');
  return user.caller.highlights.create({
    id: newId(),
    noteId,
    coreType: CoreType.highlight,
    selectors: describeRange(text, start, start + 'body text'.length),
    slotId: 3,
    ...(annotation && { annotation }),
  });
}

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
