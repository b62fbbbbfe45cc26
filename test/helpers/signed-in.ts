import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import type { AppDeps } from '../../server/trpc/context.ts';
import { newContext } from './browser.ts';
import type { RunningServer } from './http.ts';
import { signedInUser } from './users.ts';

/** A fresh user, and a Chromium page at `path` carrying their session cookie. */
export async function openSignedIn(
  browser: Browser,
  server: RunningServer,
  deps: AppDeps,
  path: string,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; user: Awaited<ReturnType<typeof signedInUser>> }> {
  const user = await signedInUser(deps);
  const context = await newContext(browser, options);
  await context.addCookies([{ name: 'logininfo', value: user.token, url: server.url }]);
  const page = await context.newPage();
  await page.goto(`${server.url}${path}`);
  return { page, user };
}
