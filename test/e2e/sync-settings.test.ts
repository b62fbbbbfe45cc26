import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { CoreType } from '../../src/enums.ts';
import {
  confirmPagePath,
  formatDeviceCode,
  newClientId,
  newDeviceCode,
} from '../../src/rules/device-flow.ts';
import { newId } from '../../src/rules/id.ts';
import { e2eFixture, type SignedInUser } from '../helpers/e2e.ts';
import { makeClippedNote } from '../helpers/notes.ts';

const app = e2eFixture({ browser: { clipboard: true } });

/** A note with one highlight, made for `user`: what the preview renders. */
async function noteWithHighlight(user: SignedInUser, title: string): Promise<void> {
  const note = await makeClippedNote(app.deps, user.user.id, {
    title,
    text: 'Reading slowly is a way of thinking. The margin is where you talk back.',
  });
  await user.caller.highlights.create({
    id: newId(),
    noteId: note.id,
    coreType: CoreType.textNote,
    text: 'The margin is where you talk back.',
  });
}

const dialogOf = (page: Page) => page.getByRole('alertdialog');

describe('sync settings in Chromium', () => {
  test('device flow: signed out, the confirmation page goes through sign-in; Allow lets the plugin collect its token once', async () => {
    const clientId = `client-${newId()}`;
    const path = `/page/gentoken/7/${clientId}`;

    const { page: signedOut } = await app.open(path);
    await signedOut.waitForURL(app.url(`/login?next=${encodeURIComponent(path)}`));
    await signedOut.context().close();

    const user = await app.user({ email: 'device@example.test' });
    const { page } = await app.signIn(path, { user });
    await expect(page.getByTestId('device-question').textContent()).resolves.toBe(
      'Connect Obsidian to your Margin account device@example.test?',
    );
    // Before the user allows it, the plugin's poll is told to wait (202, no token).
    const poll = () =>
      fetch(app.url('/api/sync/v1/token'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId }),
      });
    expect((await poll()).status).toBe(202);

    await page.getByRole('button', { name: 'Allow' }).click();
    await expect(page.getByTestId('device-done').textContent()).resolves.toBe(
      'Connected. You can return to Obsidian.',
    );
    const answer = await poll();
    expect(answer.status).toBe(200);
    const { token } = (await answer.json()) as { token: string };
    expect(token).toMatch(/^msync_/);
    const tokens = await user.caller.sync.tokens();
    expect(tokens.map((t) => t.app)).toEqual(['obsidian']);
    await expect(user.caller.sync.integration({ app: 'obsidian' })).resolves.toMatchObject({ bound: true });
    // The ticket is spent: a second poll gets no second token.
    expect((await poll()).status).toBe(410);

    // The same request confirmed again is refused with the translated reason.
    await page.goto(app.url(path));
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect(page.getByTestId('device-error').textContent()).resolves.toBe(
      'This connection request was already used. Start connecting again from the plugin.',
    );
    // A service id no tool has is named as such, with nothing to allow.
    await page.goto(app.url(`/page/gentoken/99/${clientId}`));
    await page.getByText('Margin does not know that note tool.').waitFor();
    await expect(page.getByRole('button', { name: 'Allow' }).count()).resolves.toBe(0);
    await page.context().close();
  });

  test('device flow with a code: the page of a plugin that shows one asks for it; a wrong code is refused, the right one connects', async () => {
    const clientId = newClientId();
    const userCode = newDeviceCode();
    const poll = () =>
      fetch(app.url('/api/sync/v1/token'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId, userCode }),
      });
    // The plugin registers its code with its first poll, before it opens the page.
    expect((await poll()).status).toBe(202);
    const user = await app.user({ email: 'device-code@example.test' });
    const { page } = await app.signIn(confirmPagePath(7, clientId), { user });
    const field = page.getByLabel('Code shown by Obsidian');
    await field.waitFor();
    const allow = page.getByRole('button', { name: 'Allow' });
    await expect(allow.isDisabled()).resolves.toBe(true);

    await field.fill(userCode === 'BBBBBBBB' ? 'CCCC-CCCC' : 'BBBB-BBBB');
    await allow.click();
    await expect(page.getByTestId('device-error').textContent()).resolves.toBe(
      'That is not the code the plugin shows. Check it and try again.',
    );
    expect((await poll()).status).toBe(202);

    await field.fill(formatDeviceCode(userCode).toLowerCase());
    await allow.click();
    await expect(page.getByTestId('device-done').textContent()).resolves.toBe(
      'Connected. You can return to Obsidian.',
    );
    const answer = await poll();
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { token: string }).token).toMatch(/^msync_/);
    await page.context().close();
  });

  test('templates: the preview renders a real note as typed; a bad template is named with its line and nothing is saved', async () => {
    const user = await app.user();
    await noteWithHighlight(user, 'On reading slowly');
    const { page } = await app.signIn('/personSetting/sync', { user });

    const preview = page.getByTestId('template-preview');
    // The title is set in its own direction inside the sentence (Unicode isolates around it).
    const shownNote = await preview.getByTestId('preview-note').textContent();
    expect(shownNote?.replace(/[\u2068\u2069]/g, '')).toBe('Your note “On reading slowly”');
    await expect
      .poll(() => preview.getByTestId('preview-markdown').textContent())
      .toContain('# On reading slowly');
    const fileName = preview.getByTestId('preview-file').locator('code');
    await expect(fileName.textContent()).resolves.toMatch(/^On reading slowly-[\w-]+\.md$/);

    // Typing re-renders the preview with the unsaved template.
    await page.getByTestId('template-title').fill('Slow {{ title | upcase }}');
    await expect.poll(() => fileName.textContent()).toMatch(/^Slow ON READING SLOWLY-[\w-]+\.md$/);

    // A template that does not parse: the error names it and its line, under it, and it keeps focus.
    const note = page.getByTestId('template-note');
    await note.fill('# {{ title }}\n\n{% if highlights %}\nno end');
    await page.getByTestId('save-templates').click();
    const error = page.getByTestId('template-error');
    await expect(error.textContent()).resolves.toMatch(/^The note template has an error on line \d+: .+/);
    await expect(note.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('template-note');
    const unsaved = await user.caller.sync.integration({ app: 'obsidian' });
    expect(unsaved.settings.templates).toEqual({});

    // Fixed, both save; "Reset to default" empties one again; "Start from the default" fills it.
    await note.fill('# {{ title }}\n\n{% for h in highlights %}> {{ h.note }}\n{% endfor %}');
    await expect(error.count()).resolves.toBe(0);
    await page.getByTestId('save-templates').click();
    await expect
      .poll(async () => (await user.caller.sync.integration({ app: 'obsidian' })).settings.templates)
      .toEqual({
        title: 'Slow {{ title | upcase }}',
        note: '# {{ title }}\n\n{% for h in highlights %}> {{ h.note }}\n{% endfor %}',
      });
    await page.locator('[data-testid="save-templates"]:disabled').waitFor();
    await page.getByTestId('reset-title').click();
    await expect(page.getByTestId('template-title').inputValue()).resolves.toBe('');
    // An empty template can start from the default one.
    await page.getByTestId('start-title').click();
    await expect(page.getByTestId('template-title').inputValue()).resolves.toBe(
      (await user.caller.sync.integration({ app: 'obsidian' })).defaultTemplates.title,
    );
    await page.context().close();
  });

  test('options: exclude ranges and the write style are saved', async () => {
    const { page, user } = await app.signIn('/personSetting/sync');
    await page.getByTestId('range-2').check();
    await page.getByLabel('Update only Margin’s blocks').check();
    await page.getByTestId('save-options').click();
    await expect
      .poll(async () => (await user.caller.sync.integration({ app: 'obsidian' })).settings)
      .toMatchObject({ excludeRanges: 2, writeStyle: 2 });
    await page.context().close();
  });

  test('unbind asks first: Cancel keeps the connection, Unbind ends it and revokes its tokens', async () => {
    const user = await app.user();
    await user.caller.sync.createToken({ app: 'logseq', name: 'Graph' });
    const { page } = await app.signIn('/personSetting/logseq', { user });
    const status = page.getByTestId('integration-status');
    await expect(status.textContent()).resolves.toBe('Bound');

    await page.getByRole('button', { name: 'Unbind' }).click();
    await expect(dialogOf(page).getByRole('heading').textContent()).resolves.toBe(
      'Are you sure you want to unbind?',
    );
    const unbindCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('sync.unbind')) unbindCalls.push(request.url());
    });
    await dialogOf(page).getByRole('button', { name: 'Cancel' }).click();
    await dialogOf(page).waitFor({ state: 'detached' });
    // Nothing was asked of the server, and after a reload the connection is still there.
    expect(unbindCalls).toEqual([]);
    await page.reload();
    await page.locator('[data-testid="integration-entry"][data-bound="true"]').waitFor();
    await expect(status.textContent()).resolves.toBe('Bound');
    await expect(user.caller.sync.tokens()).resolves.toHaveLength(1);

    await page.getByRole('button', { name: 'Unbind' }).click();
    await dialogOf(page).getByRole('button', { name: 'Unbind' }).click();
    await page.locator('[data-testid="integration-entry"][data-bound="false"]').waitFor();
    await expect(status.textContent()).resolves.toBe('Unbound');
    await page.getByTestId('connect-plugin').waitFor();
    await expect(user.caller.sync.tokens()).resolves.toEqual([]);
    await page.context().close();
  });

  test('tokens: created and shown once with a copy button, renamed in place, revoked after asking', async () => {
    const { page, user } = await app.signIn('/personSetting/synctoken');
    await page.getByTestId('tokens-empty').waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Laptop vault');
    await page.getByTestId('token-app').selectOption('logseq');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByTestId('new-token');
    await shown.getByText('Copy it now and keep it safe: it won’t be shown again.').waitFor();
    const token = (await page.getByTestId('new-token-value').textContent()) ?? '';
    expect(token).toMatch(/^msync_/);
    await page.getByTestId('copy-token').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    const row = page.getByTestId('token');
    await row.getByText('Laptop vault').waitFor();
    await expect(row.getByText('Laptop vault').count()).resolves.toBe(1);
    await expect(row.textContent()).resolves.toContain('Logseq');
    await expect(row.textContent()).resolves.toContain('Never used');
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Create token' }).waitFor();
    // Gone for good: not on the page, not after a reload.
    await expect(page.getByText(token).count()).resolves.toBe(0);
    await page.reload();
    await row.waitFor();
    await expect(page.content()).resolves.not.toContain(token);

    await row.getByRole('button', { name: 'Rename' }).click();
    const input = row.getByLabel('New name for Laptop vault');
    await input.fill('Desk graph');
    await input.press('Enter');
    await row.getByText('Desk graph').waitFor();
    // Focus is back on the button that opened the form, not lost to the page.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Rename');
    await expect(user.caller.sync.tokens()).resolves.toMatchObject([{ name: 'Desk graph', app: 'logseq' }]);

    await row.getByRole('button', { name: 'Revoke' }).click();
    await expect(dialogOf(page).getByRole('heading').textContent()).resolves.toBe('Revoke “Desk graph”?');
    await dialogOf(page).getByRole('button', { name: 'Revoke' }).click();
    await page.getByTestId('tokens-empty').waitFor();
    await expect(user.caller.sync.tokens()).resolves.toEqual([]);
    await page.context().close();
  });
});
