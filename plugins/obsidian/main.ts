import { Notice, Plugin } from 'obsidian';
import { SyncClient, type SyncStatus, statusText } from '../core/client.ts';
import { restoreState, type SyncState } from '../core/state.ts';
import { obsidianHttp } from './http.ts';
import { DEFAULT_SETTINGS, type ObsidianSettings } from './settings.ts';
import { MarginSettingTab, type SettingsHost } from './settings-tab.ts';
import { ObsidianVault } from './vault-adapter.ts';

interface SavedData {
  settings?: Partial<ObsidianSettings>;
  state?: SyncState;
}

export default class MarginSyncPlugin extends Plugin implements SettingsHost {
  override settings: ObsidianSettings = { ...DEFAULT_SETTINGS };
  client!: SyncClient;
  private statusBar!: HTMLElement;
  /** The code to enter in the browser, shown until connecting ends. */
  private codeNotice: Notice | null = null;

  override async onload(): Promise<void> {
    const saved = ((await this.loadData()) ?? {}) as SavedData;
    this.settings = { ...DEFAULT_SETTINGS, ...saved.settings };
    this.client = new SyncClient({
      app: 'obsidian',
      http: obsidianHttp,
      vault: new ObsidianVault(this.app),
      state: restoreState(saved.state),
      settings: () => this.settings,
      saveState: (state) => this.saveData({ settings: this.settings, state }),
      openUrl: (url) => window.open(url),
      onStatus: (status) => this.showStatus(status),
    });

    this.statusBar = this.addStatusBarItem();
    this.showStatus(this.client.status);
    this.addRibbonIcon('refresh-cw', 'Sync Margin', () => this.syncNow());
    this.addCommand({ id: 'sync-now', name: 'Sync now', callback: () => this.syncNow() });
    this.addCommand({ id: 'connect', name: 'Connect to Margin', callback: () => this.connect() });
    this.addSettingTab(new MarginSettingTab(this.app, this));

    this.client.schedule(this.settings.intervalMinutes);
    this.app.workspace.onLayoutReady(() => {
      if (this.settings.syncOnStart && this.client.connected) void this.client.sync();
    });
  }

  override onunload(): void {
    this.client.dispose();
  }

  async saveSettings(): Promise<void> {
    await this.saveData({ settings: this.settings, state: this.client.state });
  }

  async connect(): Promise<void> {
    await this.client.connect();
    this.announce(this.client.status);
  }

  async syncNow(): Promise<void> {
    if (!this.client.connected) {
      new Notice('Margin: connect first (Settings → Margin Sync).');
      return;
    }
    await this.client.sync();
    this.announce(this.client.status);
  }

  private showStatus(status: SyncStatus): void {
    this.statusBar.setText(statusText(status));
    this.codeNotice?.hide();
    // Stays until connecting ends: the user reads the code off it while typing it in the browser.
    this.codeNotice = status.kind === 'connecting' ? new Notice(statusText(status), 0) : null;
  }

  /** A notice for what the user just asked for: the sync's summary, or why it failed. */
  private announce(status: SyncStatus): void {
    const message = 'message' in status && status.message ? `Margin: ${status.message}` : statusText(status);
    new Notice(message);
  }
}
