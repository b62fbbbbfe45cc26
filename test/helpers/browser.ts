import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';
import { clock } from '../../server/clock.ts';
import { CLIENT_DIST } from '../../server/static.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for Debian's Chromium in tests: no sandbox or GPU, and nothing that reaches outside the machine. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's Chromium, headless. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', ...CHROMIUM_FLAGS],
  });
}

let shared: Promise<Browser> | undefined;

/**
 * One Chromium for every browser test file a worker runs (the worker runs its files one after
 * another in one process), launched at the first use; each file opens and closes contexts of its
 * own in it. It ends with the worker's process, or is launched again if it went away.
 */
export function sharedBrowser(): Promise<Browser> {
  shared ??= launchBrowser().then(
    (browser) => {
      browser.on('disconnected', () => {
        shared = undefined;
      });
      return browser;
    },
    (error: unknown) => {
      shared = undefined;
      throw error;
    },
  );
  return shared;
}

export function contextOptions(overrides: BrowserContextOptions = {}): BrowserContextOptions {
  return { viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'UTC', ...overrides };
}

/**
 * A browser context that lives at the server's time (the test clock) in an explicit zone, so
 * "today", relative dates and counters agree with the server whatever the machine's clock.
 */
export async function newContext(
  browser: Browser,
  overrides: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(contextOptions(overrides));
  await context.clock.install({ time: clock.now() });
  return context;
}

const root = path.resolve(import.meta.dirname, '../..');

/** Browser tests need the production client; build it if this run has not. */
export function ensureClientBuilt(): void {
  if (fs.existsSync(path.join(CLIENT_DIST, 'index.html'))) return;
  // As `npm test` and `npm start` build it: under vitest NODE_ENV is `test`, which would give
  // Vite React's development build (StrictMode runs every effect twice).
  execFileSync(path.join(root, 'node_modules/.bin/vite'), ['build'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
