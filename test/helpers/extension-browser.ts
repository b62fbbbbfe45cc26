/// <reference types="chrome" />
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page, type Worker } from 'playwright-core';
import { buildExtension } from '../../extension/build.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from './browser.ts';
import { listenOnLoopback } from './loopback-server.ts';

// Chromium with Margin's extension loaded unpacked, as a user installs it from the built zip's
// folder, and the means to reach what it draws: its UI lives in a closed shadow root, which only
// the DevTools protocol (DOM with `pierce`) sees into.

/** Builds the extension's packages into a temporary folder (once per test file). */
export async function builtExtension(): Promise<{ chrome: string; firefox: string; out: string }> {
  const out = await fs.mkdtemp(path.join(os.tmpdir(), 'margin-extension-'));
  const built = await buildExtension(out, { typecheck: false });
  return { chrome: built.chrome.dir, firefox: built.firefox.dir, out };
}

export interface ExtensionBrowser {
  context: BrowserContext;
  worker: Worker;
  extensionId: string;
  /** The browser's id of the tab showing `page`. */
  tabIdOf(page: Page): Promise<number>;
  close(): Promise<void>;
}

/** A persistent profile (extensions need one) with the unpacked extension in `dir`, or none. */
export async function launchWithExtension(dir: string | null): Promise<ExtensionBrowser> {
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'margin-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
    args: [
      '--headless=new',
      ...CHROMIUM_FLAGS,
      ...(dir ? [`--disable-extensions-except=${dir}`, `--load-extension=${dir}`] : []),
    ],
  });
  const worker = dir
    ? (context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 20_000 })))
    : (null as unknown as Worker);
  return {
    context,
    worker,
    extensionId: dir ? new URL(worker.url()).host : '',
    async tabIdOf(page) {
      const url = page.url();
      const id = await worker.evaluate(
        async (wanted) => (await chrome.tabs.query({})).find((tab) => tab.url === wanted)?.id,
        url,
      );
      if (id === undefined) throw new Error(`no tab shows ${url}`);
      return id;
    },
    async close() {
      await context.close();
      await fs.rm(profile, { recursive: true, force: true });
    },
  };
}

interface ProtocolNode {
  nodeId: number;
  backendNodeId: number;
  nodeName: string;
  attributes?: string[];
  children?: ProtocolNode[];
  shadowRoots?: ProtocolNode[];
  contentDocument?: ProtocolNode;
}

function findByTestId(node: ProtocolNode, testId: string, found: ProtocolNode[] = []): ProtocolNode[] {
  const attributes = node.attributes ?? [];
  for (let i = 0; i < attributes.length; i += 2) {
    if (attributes[i] === 'data-testid' && attributes[i + 1] === testId) found.push(node);
  }
  const inside = [
    ...(node.children ?? []),
    ...(node.shadowRoots ?? []),
    ...(node.contentDocument ? [node.contentDocument] : []),
  ];
  for (const child of inside) findByTestId(child, testId, found);
  return found;
}

/** The extension's UI on a page, reached through its closed shadow root. */
export function extensionUi(page: Page) {
  const session = page.context().newCDPSession(page);
  const nodes = async (testId: string) => {
    const cdp = await session;
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as {
      root: ProtocolNode;
    };
    return findByTestId(root, testId);
  };
  const first = async (testId: string) => {
    const [node] = await nodes(testId);
    if (!node) throw new Error(`the extension shows no ${testId}`);
    return node;
  };
  return {
    async count(testId: string): Promise<number> {
      return (await nodes(testId)).length;
    },
    async text(testId: string): Promise<string[]> {
      const cdp = await session;
      const texts: string[] = [];
      for (const node of await nodes(testId)) {
        const { outerHTML } = (await cdp.send('DOM.getOuterHTML', { backendNodeId: node.backendNodeId })) as {
          outerHTML: string;
        };
        texts.push(
          outerHTML
            .replace(/<[^>]+>/g, ' ')
            .replace(/\s+/g, ' ')
            .trim(),
        );
      }
      return texts;
    },
    /** Clicks the middle of the element with a real mouse. */
    async click(testId: string, index = 0): Promise<void> {
      const cdp = await session;
      const node = (await nodes(testId))[index];
      if (!node) throw new Error(`the extension shows no ${testId} #${index}`);
      const { model } = (await cdp.send('DOM.getBoxModel', { backendNodeId: node.backendNodeId })) as {
        model: { content: number[] };
      };
      const [x1, y1, , , x3, y3] = model.content as [number, number, number, number, number, number];
      await page.mouse.click((x1 + x3) / 2, (y1 + y3) / 2);
    },
    async exists(testId: string): Promise<boolean> {
      return (await nodes(testId)).length > 0 && Boolean(await first(testId));
    },
  };
}

/**
 * A pass-through to `target` that can drop off the network: while offline, every request's
 * connection is cut, as a browser sees a lost connection.
 */
export async function startSwitchableProxy(target: string) {
  let offline = false;
  const server = http.createServer((req, res) => {
    if (offline) {
      req.socket.destroy();
      return;
    }
    const upstream = http.request(
      `${target}${req.url}`,
      // The upstream's own Host, as a reverse proxy sends it: the server refuses one it does not
      // listen at (421), as it would the proxy's port.
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    setOffline(value: boolean) {
      offline = value;
    },
    close: listening.close,
  };
}
