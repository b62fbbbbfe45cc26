import { type App, type Plugin, PluginSettingTab, Setting } from 'obsidian';
import { type SyncClient, statusText } from '../core/client.ts';
import type { ObsidianSettings } from './settings.ts';

/** What the tab needs from the plugin (the plugin class itself would import this file back). */
export interface SettingsHost extends Plugin {
  settings: ObsidianSettings;
  client: SyncClient;
  saveSettings(): Promise<void>;
  connect(): Promise<void>;
  syncNow(): Promise<void>;
}

export class MarginSettingTab extends PluginSettingTab {
  private readonly host: SettingsHost;

  constructor(app: App, host: SettingsHost) {
    super(app, host);
    this.host = host;
  }

  override display(): void {
    const { containerEl, host } = this;
    const { settings, client } = host;
    containerEl.empty();

    new Setting(containerEl)
      .setName('Margin server')
      .setDesc('The address you open Margin at, e.g. https://margin.example.org')
      .addText((text) =>
        text
          .setPlaceholder('https://…')
          .setValue(settings.server)
          .onChange(async (value) => {
            settings.server = value.trim();
            await host.saveSettings();
          }),
      );

    new Setting(containerEl)
      .setName('Connection')
      .setDesc(statusText(client.status))
      .addButton((button) =>
        client.connected
          ? button.setButtonText('Disconnect').onClick(async () => {
              await client.disconnect();
              this.display();
            })
          : button
              .setCta()
              .setButtonText('Connect')
              .onClick(async () => {
                await host.connect();
                this.display();
              }),
      );

    new Setting(containerEl)
      .setName('Folder')
      .setDesc('Where notes are written. Empty: the folder set in Margin’s Obsidian settings.')
      .addText((text) =>
        text
          .setPlaceholder('Margin')
          .setValue(settings.folderOverride)
          .onChange(async (value) => {
            settings.folderOverride = value.trim();
            await host.saveSettings();
          }),
      );

    new Setting(containerEl).setName('Sync when Obsidian starts').addToggle((toggle) =>
      toggle.setValue(settings.syncOnStart).onChange(async (value) => {
        settings.syncOnStart = value;
        await host.saveSettings();
      }),
    );

    new Setting(containerEl)
      .setName('Sync every … minutes')
      .setDesc('0: only when you ask.')
      .addText((text) =>
        text.setValue(String(settings.intervalMinutes)).onChange(async (value) => {
          const minutes = Number.parseInt(value, 10);
          settings.intervalMinutes = Number.isFinite(minutes) && minutes > 0 ? minutes : 0;
          client.schedule(settings.intervalMinutes);
          await host.saveSettings();
        }),
      );

    new Setting(containerEl).setName('Sync now').addButton((button) =>
      button
        .setButtonText('Sync')
        .setDisabled(!client.connected)
        .onClick(() => host.syncNow()),
    );
  }
}
