import {
  APP_TEMPLATES,
  type IntegrationApp,
  PULL_SERVICE_IDS,
  type PushApp,
  type TemplateName,
  zFlomoCredentials,
  zSiyuanCredentials,
  zWorkflowyCredentials,
} from '../../../src/schemas/sync.ts';

/** One field of a push app's connect form; its label and hint are `sync.field.<name>[Hint]`. */
export interface CredentialField {
  name: string;
  type: 'url' | 'password' | 'text';
  /** What the server assumes when the field is left empty. */
  placeholder?: string;
}

/** How the push form of an app looks and what the server checks it with. */
export interface PushForm {
  fields: readonly CredentialField[];
  schema: typeof zFlomoCredentials | typeof zWorkflowyCredentials | typeof zSiyuanCredentials;
}

/**
 * Everything the one integration page needs to know about a note tool: how it connects (a
 * Margin plugin pulls, the server pushes, or both), which templates it uses, and which writing
 * options apply. The page is drawn from this, never from `if (app === …)`.
 */
export interface AppInfo {
  app: IntegrationApp;
  /** The /personSetting/<segment> it lives at. */
  segment: string;
  /**
   * Margin ships a plugin for the tool (plugins/<app>), downloaded from /downloads/plugins/<app>;
   * `serverPrefilled`: the download carries this server's address in the plugin's settings.
   */
  plugin: { serverPrefilled: boolean } | null;
  /** A client that pulls can connect with a token (the seed protocol's tools). */
  pull: boolean;
  push: PushForm | null;
  templates: readonly TemplateName[];
  /** Notes land in a folder, namespace or document path the user can name. */
  folder: boolean;
  /** Obsidian's overwrite / partial choice. */
  writeStyle: boolean;
  /** `#tag` or `[[tag]]`. */
  tagStyle: boolean;
  /** A note is written as a file whose name the preview shows. */
  files: boolean;
}

const PUSH_FORMS: Record<PushApp, PushForm> = {
  flomo: {
    fields: [{ name: 'webhookUrl', type: 'url', placeholder: 'https://flomoapp.com/iwh/…' }],
    schema: zFlomoCredentials,
  },
  workflowy: {
    fields: [
      { name: 'apiKey', type: 'password' },
      { name: 'parentId', type: 'text', placeholder: 'inbox' },
    ],
    schema: zWorkflowyCredentials,
  },
  siyuan: {
    fields: [
      { name: 'kernelUrl', type: 'url', placeholder: 'http://127.0.0.1:6806' },
      { name: 'token', type: 'password' },
      { name: 'notebook', type: 'text', placeholder: 'Margin' },
    ],
    schema: zSiyuanCredentials,
  },
};

const pulls = (app: IntegrationApp) => app in PULL_SERVICE_IDS;

export const APPS: Readonly<Record<IntegrationApp, AppInfo>> = {
  obsidian: {
    app: 'obsidian',
    segment: 'sync',
    // Obsidian reads a plugin's saved settings from data.json in its folder, which the zip carries.
    plugin: { serverPrefilled: true },
    pull: pulls('obsidian'),
    push: null,
    templates: APP_TEMPLATES.obsidian,
    folder: true,
    writeStyle: true,
    tagStyle: true,
    files: true,
  },
  logseq: {
    app: 'logseq',
    segment: 'logseq',
    // Logseq keeps plugin settings in its own settings folder, out of the package's reach.
    plugin: { serverPrefilled: false },
    pull: pulls('logseq'),
    push: null,
    templates: APP_TEMPLATES.logseq,
    folder: true,
    writeStyle: false,
    tagStyle: true,
    files: true,
  },
  siyuan: {
    app: 'siyuan',
    segment: 'siyuan',
    plugin: null,
    pull: pulls('siyuan'),
    push: PUSH_FORMS.siyuan,
    templates: APP_TEMPLATES.siyuan,
    folder: true,
    writeStyle: false,
    tagStyle: false,
    files: true,
  },
  flomo: {
    app: 'flomo',
    segment: 'flomo',
    plugin: null,
    pull: false,
    push: PUSH_FORMS.flomo,
    templates: APP_TEMPLATES.flomo,
    folder: false,
    writeStyle: false,
    tagStyle: false,
    files: false,
  },
  workflowy: {
    app: 'workflowy',
    segment: 'workflowy',
    plugin: null,
    pull: false,
    push: PUSH_FORMS.workflowy,
    templates: APP_TEMPLATES.workflowy,
    folder: false,
    writeStyle: false,
    tagStyle: false,
    files: false,
  },
};

/** The app a settings page shows, or null for a page that is not an integration. */
export function appOfSettingsPage(page: string): IntegrationApp | null {
  return Object.values(APPS).find((a) => a.segment === page)?.app ?? null;
}
