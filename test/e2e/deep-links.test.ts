import { expect, test } from 'vitest';
import { describeRange } from '../../src/anchoring/index.ts';
import { CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { e2eFixture } from '../helpers/e2e.ts';
import { makeClippedNote } from '../helpers/notes.ts';

const app = e2eFixture();

test('?nx={highlight}&vs={view} opens the reader on that highlight’s note; 24 Hours lists today’s daily note', async () => {
  const { page, user } = await app.signIn('/');
  const text = 'Attention is the rarest and purest form of generosity.';
  const saved = await makeClippedNote(app.deps, user.user.id, { title: 'On attention', text });
  const highlight = await user.caller.highlights.create({
    id: newId(),
    noteId: saved.id,
    coreType: CoreType.highlight,
    selectors: describeRange(text, 0, 9),
  });

  await page.goto(app.url(`/?nx=${highlight.id}&vs=article`));
  await page.getByTestId('reader').waitFor();
  const address = new URL(page.url());
  expect(address.searchParams.get('pi')).toBe(saved.id);
  expect(address.searchParams.get('nx')).toBe(highlight.id);
  await expect(page.getByTestId('reader-content').textContent()).resolves.toContain('Attention');
  // The linked highlight is painted (a range registered with the CSS Custom Highlight API) and flashed.
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...CSS.highlights.values()].flatMap((highlight) =>
          [...highlight].map((painted) => {
            const range = document.createRange();
            range.setStart(painted.startContainer, painted.startOffset);
            range.setEnd(painted.endContainer, painted.endOffset);
            return range.toString();
          }),
        ),
      ),
    )
    .toEqual(['Attention']);
  await page.getByTestId('highlight-flash').first().waitFor();

  await user.caller.daily.append({ text: 'a thought for today' });
  await page.goto(app.url('/?nav=24h'));
  await page.getByTestId('recent-daily').waitFor();
  await expect(page.getByTestId('recent-daily').textContent()).resolves.toContain('a thought for today');
  await page.context().close();
});

test('a reader address opened directly shows the note without a loading step in between', async () => {
  const { page, user } = await app.signIn('/');
  const saved = await makeClippedNote(app.deps, user.user.id, {
    title: 'Straight in',
    text: 'The reader comes up with its note, not a loading line first.',
  });
  // Everything the page showed before the reader, recorded from the first byte on.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { shownBeforeReader: string[] }).shownBeforeReader = seen;
    new MutationObserver((_, observer) => {
      if (document.querySelector('[data-testid="reader"]')) return observer.disconnect();
      const home = document.querySelector('[data-testid="home"]');
      if (home?.textContent) seen.push(home.textContent);
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto(app.url(`/?pi=${saved.id}&vs=article`));
  await page.getByTestId('reader').waitFor();
  await expect(page.getByTestId('reader-content').textContent()).resolves.toContain('loading line');
  const shown = await page.evaluate(
    () => (window as unknown as { shownBeforeReader: string[] }).shownBeforeReader,
  );
  expect(shown.filter((text) => text.includes('Loading'))).toEqual([]);
  await page.context().close();
});
