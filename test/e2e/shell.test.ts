import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { CLIENT_DIST } from '../../server/static.ts';
import { e2eFixture } from '../helpers/e2e.ts';

const app = e2eFixture();

describe('app shell in Chromium', () => {
  test('the app boots on / with the left navigation and no page errors', async () => {
    const { page, errors } = await app.open('/');
    await page.getByTestId('home').waitFor();
    await expect(
      page.getByRole('navigation', { name: 'Library' }).getByRole('link', { name: 'Later' }).count(),
    ).resolves.toBe(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('/personSetting redirects to /personSetting/user (via sign-in when signed out)', async () => {
    const { page: anonymous } = await app.open('/personSetting');
    await anonymous.waitForURL((url) => url.pathname === '/login');
    expect(new URL(anonymous.url()).searchParams.get('next')).toBe('/personSetting/user');
    await anonymous.context().close();

    const { page } = await app.signIn('/personSetting');
    await page.getByTestId('settings-user').waitFor();
    expect(new URL(page.url()).pathname).toBe('/personSetting/user');
    await page.context().close();
  });

  test('an unknown path lands on /404, which has no app chrome', async () => {
    const { page } = await app.open('/definitely/not/here');
    await page.getByTestId('not-found').waitFor();
    expect(new URL(page.url()).pathname).toBe('/404');
    expect(await page.locator('.sidebar, .topbar').count()).toBe(0);
    await page.context().close();
  });

  test('/login shows the navigation bar and renders in English and in Simplified Chinese', async () => {
    const { page: en } = await app.open('/login');
    await expect(en.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Welcome back');
    expect(await en.locator('.topbar').count()).toBe(1);
    await en.context().close();

    const { page: zh } = await app.open('/login', { locale: 'zh-CN' });
    await zh.locator('html[lang="zh-CN"]').waitFor();
    const heading = await zh.getByRole('heading', { level: 1 }).textContent();
    expect(heading).toMatch(/[\u4e00-\u9fff]/);
    await zh.context().close();
  });

  test('the theme toggles and survives a reload', async () => {
    const { page } = await app.open('/', { colorScheme: 'light' });
    const html = page.locator('html');
    await expect(html.getAttribute('data-theme')).resolves.toBe('light');
    const toggle = page.getByTestId('theme-toggle');
    // Stored theme starts as "follow system"; the cycle is light → dark → system.
    while ((await toggle.getAttribute('data-theme-choice')) !== 'y') await toggle.click();
    await expect(html.getAttribute('data-theme')).resolves.toBe('dark');
    expect(await page.evaluate(() => localStorage.getItem('margin.theme'))).toBe('y');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(12, 12, 12)');
    await page.reload();
    await page.getByTestId('home').waitFor();
    await expect(html.getAttribute('data-theme')).resolves.toBe('dark');
    await page.context().close();
  });

  test('the top bar is opaque in both themes: text scrolled beneath it never shows through', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page } = await app.open('/', { colorScheme });
      const topbar = page.locator('.topbar');
      await topbar.waitFor();
      const style = await topbar.evaluate((el) => {
        const computed = getComputedStyle(el);
        return { background: computed.backgroundColor, filter: computed.backdropFilter };
      });
      const body = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect({ colorScheme, ...style }).toEqual({ colorScheme, background: body, filter: 'none' });
      await page.context().close();
    }
  });

  test('switching the language changes the page text, the direction for Arabic, and is remembered', async () => {
    const { page } = await app.open('/login');
    await page.getByTestId('language-select').selectOption('de');
    await page.locator('html[lang="de"]').waitFor();
    const german = await page.getByRole('heading', { level: 1 }).textContent();
    expect(german).not.toBe('Welcome back');
    await page.getByTestId('language-select').selectOption('ar');
    await page.locator('html[dir="rtl"]').waitFor();
    await page.reload();
    await page.locator('html[lang="ar"][dir="rtl"]').waitFor();
    await page.context().close();
  });

  test('the kept-alive home list keeps its state while the user visits settings', async () => {
    const { page } = await app.signIn('/');
    await page.getByTestId('home').waitFor();
    await page.evaluate(() => {
      (document.querySelector('[data-testid="home"]') as HTMLElement).dataset.marker = 'still-here';
    });
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByTestId('settings-user').waitFor();
    await page.getByRole('navigation', { name: 'Library' }).getByRole('link', { name: 'All' }).click();
    await expect(page.locator('[data-testid="home"]').getAttribute('data-marker')).resolves.toBe(
      'still-here',
    );
    await page.context().close();
  });

  test('deep links ?pi=…&vs=… are parsed, and the hash form /#/?pi=… is accepted', async () => {
    const { page } = await app.open('/#/?pi=page-42&vs=card');
    await page.getByTestId('home').waitFor();
    expect(new URL(page.url()).search).toBe('?pi=page-42&vs=card');
    const state = JSON.parse((await page.getByTestId('home').getAttribute('data-deep-link')) ?? 'null');
    expect(state).toEqual({ kind: 'note', noteId: 'page-42', viewStyle: 'card' });
    await page.context().close();
  });

  test('the web manifest is linked with the build version', async () => {
    const { page } = await app.open('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toMatch(/^\/manifest\.webmanifest\?v=\d+\.\d+\.\d+/);
    await page.context().close();
  });

  test('the server forbids framing the app', async () => {
    const { page } = await app.open('/404');
    const blocked = await page.evaluate(async (url) => {
      const frame = document.createElement('iframe');
      // Chromium fires load for a refused frame too (with its error page in it): wait for the
      // outcome instead of a guess at how long loading takes.
      const loaded = new Promise((r) => frame.addEventListener('load', r, { once: true }));
      frame.src = url;
      document.body.appendChild(frame);
      await loaded;
      try {
        return frame.contentDocument?.querySelector('#root') === null || frame.contentDocument === null;
      } catch {
        return true;
      }
    }, app.url('/login'));
    expect(blocked).toBe(true);
    await page.context().close();
  });

  test('where headers are stripped (a proxy), the app still breaks out of a frame', async () => {
    // A host that serves the built client without our headers and frames it, as a careless
    // reverse proxy or a scraping site would.
    const { readFileSync } = await import('node:fs');
    const host = http.createServer((req, res) => {
      if (req.url === '/framer') {
        res.setHeader('Content-Type', 'text/html');
        res.end(
          '<!doctype html><title>framer</title><iframe src="/login" width="600" height="400"></iframe>',
        );
        return;
      }
      const file = req.url?.startsWith('/assets/') ? req.url : '/index.html';
      try {
        const body = readFileSync(`${CLIENT_DIST}${file}`);
        res.setHeader(
          'Content-Type',
          file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html',
        );
        res.end(body);
      } catch {
        res.statusCode = 404;
        res.end();
      }
    });
    host.listen(0, '127.0.0.1');
    await new Promise((r) => host.once('listening', r));
    const { port } = host.address() as AddressInfo;
    const { context, page } = await app.open();
    await page.goto(`http://127.0.0.1:${port}/framer`);
    await page.waitForURL(`http://127.0.0.1:${port}/login`, { timeout: 10_000 });
    await page.locator('[data-testid="login-form"]').waitFor();
    await context.close();
    host.close();
  });

  test('at 360 px the navigation is a drawer', async () => {
    const { page } = await app.open('/', { viewport: { width: 360, height: 740 } });
    await page.getByTestId('home').waitFor();
    expect(await page.locator('aside.sidebar').count()).toBe(0);
    await page.getByTestId('open-drawer').click();
    await page.getByRole('dialog').getByRole('link', { name: 'Later' }).click();
    await page.waitForURL(/nav=later/);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.context().close();
  });
});
