import { formatDeviceCode, newClientId, newDeviceCode } from '../../src/rules/device-flow.ts';
import type { PULL_SERVICE_IDS } from '../../src/schemas/sync.ts';
import { normalizeServer, SyncApi, SyncApiError } from './api.ts';
import { confirmPageUrl, DEFAULT_POLL, type PollOptions, pollForToken } from './device-flow.ts';
import type { HttpFn } from './http.ts';
import { type PullResult, pull } from './pull.ts';
import type { SyncState } from './state.ts';
import type { Vault } from './vault.ts';

export type PluginApp = 'obsidian' | 'logseq';
/** The seed protocol's service ids, checked against the shared schema. */
export const SERVICE_IDS: Pick<typeof PULL_SERVICE_IDS, PluginApp> = { obsidian: 7, logseq: 11 };

export type SyncStatus =
  | { kind: 'disconnected'; message?: string }
  /** Waiting for the user to confirm in the browser, where they enter `code`. */
  | { kind: 'connecting'; code: string }
  | { kind: 'syncing' }
  | { kind: 'idle'; lastSyncAt: number | null; message?: string }
  /** Another client holds the sync lease (HTTP 409); a retry is scheduled. */
  | { kind: 'busy'; message: string }
  | { kind: 'error'; message: string };

export interface LocalSettings {
  server: string;
  /** Empty: the folder set on the server. */
  folderOverride: string;
}

export interface SyncClientOptions {
  app: PluginApp;
  http: HttpFn;
  vault: Vault;
  state: SyncState;
  settings: () => LocalSettings;
  saveState: (state: SyncState) => Promise<void>;
  /** Opens the confirmation page in the user's browser. */
  openUrl: (url: string) => void;
  onStatus?: (status: SyncStatus) => void;
  poll?: PollOptions;
  /** How long to wait before trying again when another client is syncing. */
  busyRetryMs?: number;
}

/** What both shells drive: connecting, syncing now or on a schedule, and the status to show. */
export class SyncClient {
  state: SyncState;
  status: SyncStatus;
  private running: Promise<PullResult | null> | null = null;
  private connecting: AbortController | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private intervalTimer: ReturnType<typeof setInterval> | null = null;

  private readonly options: SyncClientOptions;

  constructor(options: SyncClientOptions) {
    this.options = options;
    this.state = options.state;
    this.status = options.state.token
      ? { kind: 'idle', lastSyncAt: options.state.lastSyncAt }
      : { kind: 'disconnected' };
  }

  get connected(): boolean {
    return this.state.token !== null;
  }

  /** The device flow: opens the confirmation page, then waits for the token. True when connected. */
  async connect(): Promise<boolean> {
    const { server } = this.options.settings();
    if (!normalizeServer(server)) {
      this.setStatus({ kind: 'disconnected', message: 'Set the Margin server URL first.' });
      return false;
    }
    this.connecting?.abort();
    const controller = new AbortController();
    this.connecting = controller;
    const clientId = newClientId();
    const userCode = newDeviceCode();
    this.setStatus({ kind: 'connecting', code: formatDeviceCode(userCode) });
    try {
      const api = new SyncApi(this.options.http, server);
      // The first poll registers the code before the page's address (the client id) is out.
      // (No one can have confirmed it yet, so this poll never answers a token.)
      await api.token(clientId, userCode);
      this.options.openUrl(confirmPageUrl(server, SERVICE_IDS[this.options.app], clientId));
      const token = await pollForToken(
        api,
        { clientId, userCode },
        { ...(this.options.poll ?? DEFAULT_POLL), signal: controller.signal },
      );
      // A new connection starts from the beginning; the files already written are found again by id.
      await this.update({ token, clientId, cursor: null });
      this.setStatus({ kind: 'idle', lastSyncAt: this.state.lastSyncAt, message: 'Connected to Margin.' });
      return true;
    } catch (error) {
      this.setStatus({ kind: 'disconnected', message: messageOf(error) });
      return false;
    } finally {
      if (this.connecting === controller) this.connecting = null;
    }
  }

  /** Forgets the token (the files stay; a later connection finds them again). */
  async disconnect(): Promise<void> {
    this.connecting?.abort();
    await this.update({ token: null, cursor: null });
    this.setStatus({ kind: 'disconnected' });
  }

  /** Syncs now; a call while a sync runs joins it. Null when nothing was synced. */
  sync(): Promise<PullResult | null> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Syncs every `minutes` (0 = never), replacing the previous schedule. */
  schedule(minutes: number): void {
    if (this.intervalTimer) clearInterval(this.intervalTimer);
    this.intervalTimer = minutes > 0 ? setInterval(() => void this.sync(), minutes * 60_000) : null;
  }

  /** Stops the schedule, a pending retry and a connection in progress. */
  dispose(): void {
    this.schedule(0);
    this.connecting?.abort();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private async run(): Promise<PullResult | null> {
    const { token, clientId } = this.state;
    if (!token || !clientId) {
      this.setStatus({ kind: 'disconnected' });
      return null;
    }
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.setStatus({ kind: 'syncing' });
    const { server, folderOverride } = this.options.settings();
    const notes = { ...this.state.notes };
    try {
      const api = new SyncApi(this.options.http, server, token);
      const result = await pull({
        api,
        vault: this.options.vault,
        clientId,
        cursor: this.state.cursor,
        notes,
        folderOverride,
      });
      await this.update({ notes, cursor: result.cursor, lastSyncAt: Date.now() });
      this.setStatus({ kind: 'idle', lastSyncAt: this.state.lastSyncAt, message: summary(result) });
      return result;
    } catch (error) {
      await this.update({ notes });
      await this.failed(error);
      return null;
    }
  }

  private async failed(error: unknown): Promise<void> {
    const message = messageOf(error);
    if (error instanceof SyncApiError && error.status === 401) {
      await this.update({ token: null, cursor: null });
      this.setStatus({ kind: 'disconnected', message });
    } else if (error instanceof SyncApiError && error.status === 409) {
      this.retryTimer = setTimeout(() => void this.sync(), this.options.busyRetryMs ?? 60_000);
      this.setStatus({ kind: 'busy', message });
    } else {
      this.setStatus({ kind: 'error', message });
    }
  }

  private async update(change: Partial<SyncState>): Promise<void> {
    this.state = { ...this.state, ...change };
    await this.options.saveState(this.state);
  }

  private setStatus(status: SyncStatus): void {
    this.status = status;
    this.options.onStatus?.(status);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function summary(result: PullResult): string {
  const parts = [`${result.written} written`];
  if (result.renamed) parts.push(`${result.renamed} renamed`);
  if (result.removed) parts.push(`${result.removed} removed`);
  if (result.kept.length) parts.push(`${result.kept.length} kept because you edited them`);
  return `Synced: ${parts.join(', ')}.`;
}

/** One line for a status bar or toolbar tooltip. */
export function statusText(status: SyncStatus): string {
  switch (status.kind) {
    case 'disconnected':
      return status.message ? `Margin: not connected (${status.message})` : 'Margin: not connected';
    case 'connecting':
      return `Margin: confirm in the browser with the code ${status.code}…`;
    case 'syncing':
      return 'Margin: syncing…';
    case 'idle':
      return status.lastSyncAt
        ? `Margin: synced ${new Date(status.lastSyncAt).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' })}`
        : 'Margin: connected, not synced yet';
    case 'busy':
      return `Margin: another device is syncing, retrying soon (${status.message})`;
    case 'error':
      return `Margin: sync failed (${status.message})`;
  }
}
