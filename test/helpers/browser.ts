import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContextOptions, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with nothing that reaches outside the machine. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export function contextOptions(overrides: BrowserContextOptions = {}): BrowserContextOptions {
  return { viewport: { width: 1280, height: 800 }, locale: 'en-US', ...overrides };
}

const root = path.resolve(import.meta.dirname, '../..');

/** Browser tests need the production client; build it if this run has not. */
export function ensureClientBuilt(): void {
  if (fs.existsSync(path.join(root, 'dist/client/index.html'))) return;
  execFileSync(path.join(root, 'node_modules/.bin/vite'), ['build'], { cwd: root, stdio: 'ignore' });
}
