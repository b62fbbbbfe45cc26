// Everything a browser test needs, started once per test file and stopped in one call: the real
// app server over HTTP on loopback (with the built client and its own database), the job workers
// when asked, a local web site and an SMTP sink when asked, and the worker's Chromium; then fresh
// users and browser contexts signed in as them.
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startWorkers } from '../../jobs/workers.ts';
import { ensureClientBuilt, newContext, sharedBrowser } from './browser.ts';
import { createTestDeps, type TestDeps } from './deps.ts';
import { startServer } from './http.ts';
import { type Route, startSite, type TestSite } from './site.ts';
import { type SmtpSink, startSmtpSink } from './smtp.ts';
import { signedInUser } from './users.ts';

export type SignedInUser = Awaited<ReturnType<typeof signedInUser>>;

/** How one browser context differs from the default (1280×800, en-US, UTC, at the test clock). */
export interface OpenOptions extends BrowserContextOptions {
  /** Let the app's origin read and write the clipboard. */
  clipboard?: boolean;
  /** The page's default timeout for actions and waits, in ms (Playwright's own is 30 s). */
  timeout?: number;
}

export interface SignInOptions extends OpenOptions {
  /** Sign in as this user (made earlier with `app.user()`); otherwise a fresh one is made. */
  user?: SignedInUser;
  /** The zone of the fresh user's account (the browser's is `timezoneId`). */
  timeZone?: string;
}

/** A browser context of its own, its first page, and the errors thrown in that page. */
export interface Opened {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

export interface E2EOptions {
  /** Run the job workers (clips, mail, maintenance) beside the server. */
  workers?: boolean;
  /** Serve these routes on a local site, which the clipper is allowed to fetch from. */
  site?: Record<string, Route>;
  /** Deliver mail to an SMTP sink on loopback (the workers send it: ask for them too). */
  smtp?: boolean;
  /** More of the app's environment. */
  env?: Record<string, string>;
  /** Defaults for every context the fixture opens; each `open`/`signIn` may override them. */
  browser?: OpenOptions;
}

export interface E2E {
  deps: TestDeps;
  /** The local site (throws unless started with `site`). */
  site: TestSite;
  /** The SMTP sink (throws unless started with `smtp`). */
  smtp: SmtpSink;
  /** The app's address for `path` (`/daily`, `/?pi=…`). */
  url(path?: string): string;
  /** A fresh user with a live session, made in the database, and a tRPC caller acting as them. */
  user(options?: { email?: string; timeZone?: string }): Promise<SignedInUser>;
  /** A new signed-out context and page, at `path` if given. */
  open(path?: string, options?: OpenOptions): Promise<Opened>;
  /** A new context carrying a user's session cookie and its page, at `path` if given. */
  signIn(path?: string, options?: SignInOptions): Promise<Opened & { user: SignedInUser }>;
  /** Stops everything the fixture started, the last started first. */
  close(): Promise<void>;
}

/** Starts what `options` ask for; if a part fails to start, what already runs is stopped. */
async function startE2E(options: E2EOptions = {}): Promise<E2E> {
  ensureClientBuilt();
  const stops: (() => Promise<void>)[] = [];
  const close = async () => {
    const failures: unknown[] = [];
    for (const stop of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length) throw new AggregateError(failures, 'stopping the e2e fixture');
  };
  async function started<T extends { close(): Promise<void> }>(part: Promise<T>): Promise<T> {
    const running = await part;
    stops.push(() => running.close());
    return running;
  }

  try {
    const env: Record<string, string> = {};
    const smtp = options.smtp ? await started(startSmtpSink()) : undefined;
    if (smtp) env.SMTP_URL = smtp.url;
    const site = options.site ? await started(startSite(options.site)) : undefined;
    if (site) env.FETCH_ALLOW_TARGETS = site.target;
    const deps = await started(createTestDeps({ ...env, ...options.env }));
    if (options.workers) await started(startWorkers(deps));
    const server = await started(startServer(deps));
    // The worker's browser outlives the file; the contexts the file opened close with it.
    const browser = await sharedBrowser();
    const contexts = new Set<BrowserContext>();
    stops.push(async () => {
      await Promise.all([...contexts].map((context) => context.close()));
    });
    const url = (path = '') => `${server.url}${path}`;

    const open = async (path?: string, overrides: OpenOptions = {}) => {
      const { clipboard, timeout, ...contextOptions } = { ...options.browser, ...overrides };
      const context = await newContext(browser, contextOptions);
      contexts.add(context);
      context.on('close', () => contexts.delete(context));
      if (clipboard)
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const page = await context.newPage();
      if (timeout !== undefined) page.setDefaultTimeout(timeout);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      if (path !== undefined) await page.goto(url(path));
      return { context, page, errors };
    };

    const user = (who: { email?: string; timeZone?: string } = {}) =>
      signedInUser(deps, who.email, who.timeZone);

    return {
      deps,
      get site(): TestSite {
        if (!site) throw new Error('this e2e fixture was started without a site');
        return site;
      },
      get smtp(): SmtpSink {
        if (!smtp) throw new Error('this e2e fixture was started without an SMTP sink');
        return smtp;
      },
      url,
      user,
      open,
      async signIn(path, { user: given, timeZone, ...contextOptions } = {}) {
        const signedIn = given ?? (await user({ timeZone }));
        // The cookie goes in before the page loads anything, so its first request is signed in.
        const opened = await open(undefined, contextOptions);
        await opened.context.addCookies([{ name: 'logininfo', value: signedIn.token, url: server.url }]);
        if (path !== undefined) await opened.page.goto(url(path));
        return { ...opened, user: signedIn };
      },
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

/**
 * The fixture for a test file: started before its first test, stopped after its last. The
 * answer stands for the started fixture; use it inside tests and hooks, not at the top level.
 */
export function e2eFixture(options: E2EOptions = {}): E2E {
  let app: E2E | undefined;
  beforeAll(async () => {
    app = await startE2E(options);
  });
  afterAll(async () => {
    await app?.close();
  });
  return new Proxy({} as E2E, {
    get(_target, key) {
      if (!app) throw new Error(`e2e fixture used before it started (reading ${String(key)})`);
      return Reflect.get(app, key);
    },
  });
}
