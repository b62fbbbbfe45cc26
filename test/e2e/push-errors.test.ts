import { describe, expect, test } from 'vitest';
import { CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { e2eFixture } from '../helpers/e2e.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { waitFor } from '../helpers/wait.ts';

// flomo's address is on loopback, which the guarded fetcher refuses (nothing allows it): every
// push fails at once, with its reason.
const FLOMO_ORIGIN = 'http://127.0.0.1:9';
const app = e2eFixture({
  workers: true,
  env: { FLOMO_API_ORIGIN: FLOMO_ORIGIN, PUSH_DEBOUNCE_MS: '100', PUSH_RETRY_DELAY_MS: '100' },
});

describe('a failed push in Chromium', () => {
  test('the integration page shows the reason and Retry, and the settings navigation marks flomo', async () => {
    const user = await app.user();
    const note = await makeClippedNote(app.deps, user.user.id, {
      title: 'Pushed',
      text: 'A failed push says why it failed.',
    });
    await user.caller.sync.connectPush({
      app: 'flomo',
      credentials: { webhookUrl: `${FLOMO_ORIGIN}/iwh/abc/def/` },
    });
    await user.caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.textNote,
      text: 'A failed push says why it failed.',
    });
    await waitFor(async () => {
      const view = await user.caller.sync.integration({ app: 'flomo' });
      return view.lastResult === 'error' ? view : undefined;
    });

    const { page } = await app.signIn('/personSetting/flomo', { user });
    const lastRun = page.getByTestId('last-run');
    await lastRun.waitFor();
    await expect(lastRun.getAttribute('data-result')).resolves.toBe('error');
    await expect(lastRun.textContent()).resolves.toContain('Margin may not reach this address');
    const mark = page.getByRole('navigation').getByTestId('sync-error-mark');
    await mark.waitFor();
    await expect(mark.getAttribute('aria-label')).resolves.toBe('The last push failed');
    // Only flomo failed: no other link is marked.
    await expect(page.getByTestId('sync-error-mark').count()).resolves.toBe(1);

    const before = (await app.deps.queues.push.getJobs(['completed', 'failed'])).length;
    await page.getByTestId('sync-retry').click();
    await page.getByText('Trying again now.').waitFor();
    // Retry queued a push, which ran (and failed the same way).
    await waitFor(async () =>
      (await app.deps.queues.push.getJobs(['completed', 'failed'])).length > before ? true : undefined,
    );
  });
});
