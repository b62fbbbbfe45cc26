import type { Browser } from 'playwright-core';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { ensureClientBuilt, launchBrowser } from './browser.ts';
import { createTestDeps, type TestDeps } from './deps.ts';
import { type RunningServer, startServer } from './http.ts';

export interface BrowserApp {
  deps: TestDeps;
  server: RunningServer;
  browser: Browser;
  workers: RunningWorkers | undefined;
  close(): Promise<void>;
}

/** The real server with the built client, its own database, optionally workers, and Chromium. */
export async function startBrowserApp(
  options: { env?: Record<string, string>; workers?: boolean } = {},
): Promise<BrowserApp> {
  ensureClientBuilt();
  const deps = await createTestDeps(options.env);
  const workers = options.workers ? await startWorkers(deps) : undefined;
  const server = await startServer(deps);
  const browser = await launchBrowser();
  return {
    deps,
    server,
    browser,
    workers,
    async close() {
      await browser.close();
      await server.close();
      await workers?.close();
      await deps.close();
    },
  };
}
