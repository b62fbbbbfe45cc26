import type { LocalSettings } from '../core/client.ts';

export interface ObsidianSettings extends LocalSettings {
  syncOnStart: boolean;
  /** 0: no scheduled sync. */
  intervalMinutes: number;
}

export const DEFAULT_SETTINGS: ObsidianSettings = {
  server: '',
  folderOverride: '',
  syncOnStart: true,
  intervalMinutes: 0,
};
