// The Obsidian integration page offers the plugin this server built: a Download button with the
// version its manifest carries, the install steps, and a zip whose data.json names this server;
// the Logseq page says why its download cannot bring the address.
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildPackages } from '../helpers/built-packages.ts';
import { e2eFixture } from '../helpers/e2e.ts';
import { unzip } from '../helpers/zip.ts';

const app = e2eFixture({ browser: { timeout: 20_000 } });
let packages: Awaited<ReturnType<typeof buildPackages>>;

beforeAll(async () => {
  packages = await buildPackages({ extension: false });
  // The fixture's server reads the packages folder on each request.
  app.deps.config.packagesDir = packages.dir;
});
afterAll(() => packages.remove());

describe('the plugin download on the integration pages', () => {
  test('Obsidian: the version on the button, the install steps, and a zip carrying this server’s address', async () => {
    const { page, context, errors, user } = await app.signIn('/personSetting/sync', {
      acceptDownloads: true,
    });
    const [obsidian] = (await user.caller.system.info()).plugins;
    expect(obsidian?.tool).toBe('obsidian');
    const button = page.getByTestId('plugin-download');
    await expect(button.textContent()).resolves.toBe(`Download Margin Sync ${obsidian!.version}`);
    await expect(page.getByTestId('plugin-install').textContent()).resolves.toContain('.obsidian/plugins');
    expect(await page.getByTestId('connect-plugin').textContent()).not.toContain('dist/plugins');

    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe(`margin-obsidian-${obsidian!.version}.zip`);
    const files = await unzip(await fs.readFile(await download.path()));
    expect(JSON.parse(files.get('margin-sync/data.json')!)).toEqual({
      settings: { server: new URL(app.url()).origin },
    });
    expect(JSON.parse(files.get('margin-sync/manifest.json')!).version).toBe(obsidian!.version);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('Logseq: the download, and why its address is typed in', async () => {
    const { page, context, errors } = await app.signIn('/personSetting/logseq');
    await page.getByTestId('plugin-download').waitFor();
    await expect(page.getByTestId('server-not-prefilled').textContent()).resolves.toContain(
      'Logseq keeps plugin settings outside the plugin’s folder',
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
