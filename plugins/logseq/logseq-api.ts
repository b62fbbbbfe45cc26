// The few parts of Logseq's plugin API (the `logseq` global the host injects with its SDK,
// lsplugin.user.js) this plugin uses, declared here rather than depending on @logseq/libs:
// the SDK is provided by Logseq at run time, so only these types would be taken from it.

export interface LogseqBlock {
  uuid: string;
  content?: string;
  /** Newer Logseq versions name the block text `title`. */
  title?: string;
  'preBlock?'?: boolean;
  children?: Array<LogseqBlock | [string, string]>;
}

export interface LogseqPage {
  uuid: string;
  name: string;
  originalName?: string;
  title?: string;
}

export interface BatchBlock {
  content: string;
  children?: BatchBlock[];
}

export interface LogseqEditor {
  getPage(name: string): Promise<LogseqPage | null>;
  createPage(
    name: string,
    properties?: Record<string, unknown>,
    options?: { redirect?: boolean; createFirstBlock?: boolean; format?: 'markdown' },
  ): Promise<LogseqPage | null>;
  deletePage(name: string): Promise<void>;
  renamePage(oldName: string, newName: string): Promise<void>;
  getAllPages(): Promise<LogseqPage[] | null>;
  getPageBlocksTree(name: string): Promise<LogseqBlock[] | null>;
  appendBlockInPage(page: string, content: string): Promise<LogseqBlock | null>;
  insertBatchBlock(
    target: string,
    batch: BatchBlock[],
    options?: { sibling?: boolean; before?: boolean },
  ): Promise<unknown>;
  removeBlock(uuid: string): Promise<void>;
}

export interface SettingDescription {
  key: string;
  type: 'string' | 'number' | 'boolean';
  default: string | number | boolean;
  title: string;
  description: string;
}

export interface LogseqHost {
  ready(main: () => Promise<void> | void): Promise<unknown>;
  settings?: Record<string, unknown>;
  useSettingsSchema(schema: SettingDescription[]): unknown;
  updateSettings(attributes: Record<string, unknown>): void;
  onSettingsChanged(callback: (next: Record<string, unknown>) => void): unknown;
  provideModel(model: Record<string, () => unknown>): unknown;
  beforeunload(callback: () => Promise<void>): unknown;
  Editor: LogseqEditor;
  App: {
    openExternalLink(url: string): Promise<void>;
    registerCommandPalette(command: { key: string; label: string }, action: () => unknown): unknown;
    registerUIItem(type: 'toolbar', item: { key: string; template: string }): void;
  };
  UI: {
    /** With a `key`, the message can be closed by it; a `timeout` of 0 keeps it until then. */
    showMsg(
      content: string,
      status?: 'success' | 'warning' | 'error',
      options?: { key?: string; timeout?: number },
    ): Promise<unknown>;
    closeMsg(key: string): void;
  };
}

/** The host's API; it exists once Logseq has loaded the SDK in the plugin's frame. */
export function logseqHost(): LogseqHost {
  return (globalThis as unknown as { logseq: LogseqHost }).logseq;
}
