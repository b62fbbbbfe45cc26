import { SyncClient, type SyncStatus, statusText } from '../core/client.ts';
import { fetchHttp } from '../core/http.ts';
import { restoreState } from '../core/state.ts';
import { type LogseqHost, logseqHost } from './logseq-api.ts';
import { PageVault } from './page-vault.ts';

const SETTINGS = [
  {
    key: 'server',
    type: 'string',
    default: '',
    title: 'Margin server',
    description: 'The address you open Margin at, e.g. https://margin.example.org',
  },
  {
    key: 'folderOverride',
    type: 'string',
    default: '',
    title: 'Namespace',
    description:
      'Pages are created as `<namespace>/<title>`. Empty: the folder set in Margin’s Logseq settings.',
  },
  { key: 'syncOnStart', type: 'boolean', default: true, title: 'Sync when Logseq starts', description: '' },
  {
    key: 'intervalMinutes',
    type: 'number',
    default: 0,
    title: 'Sync every … minutes',
    description: '0: only when you ask.',
  },
] as const;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function parseState(saved: unknown) {
  try {
    return restoreState(typeof saved === 'string' && saved ? JSON.parse(saved) : undefined);
  } catch {
    return restoreState(undefined);
  }
}

/** The key of the message that shows the code while connecting. */
const CODE_MESSAGE = 'margin-connect-code';

function main(host: LogseqHost): void {
  // biome-ignore lint/correctness/useHookAtTopLevel: Logseq's settings API, not a React hook.
  host.useSettingsSchema([...SETTINGS]);
  const settings = () => host.settings ?? {};
  let shown: SyncStatus['kind'] | null = null;
  const client = new SyncClient({
    app: 'logseq',
    http: fetchHttp,
    vault: new PageVault(host.Editor),
    state: parseState(settings().syncState),
    settings: () => ({ server: text(settings().server), folderOverride: text(settings().folderOverride) }),
    // A JSON string: Logseq deep-merges setting objects, which would keep removed notes forever.
    saveState: async (state) => host.updateSettings({ syncState: JSON.stringify(state) }),
    openUrl: (url) => void host.App.openExternalLink(url),
    onStatus: (status) => {
      // The code to enter in the browser stays on screen until connecting ends.
      if (status.kind === 'connecting')
        void host.UI.showMsg(statusText(status), 'success', { key: CODE_MESSAGE, timeout: 0 });
      else if (shown === 'connecting') host.UI.closeMsg(CODE_MESSAGE);
      // A scheduled sync that keeps failing says so once, not every few minutes.
      const failing =
        status.kind === 'error' ||
        status.kind === 'busy' ||
        (status.kind === 'disconnected' && status.message);
      if (failing && shown !== status.kind) void host.UI.showMsg(statusText(status), 'warning');
      shown = status.kind;
    },
  });

  const announce = () => {
    const { status } = client;
    const ok = status.kind === 'idle';
    void host.UI.showMsg(
      ok && status.message ? `Margin: ${status.message}` : statusText(status),
      ok ? 'success' : 'warning',
    );
  };
  const connect = async () => {
    await client.connect();
    announce();
  };
  const syncNow = async () => {
    if (!client.connected) return connect();
    shown = null;
    await client.sync();
    announce();
  };

  host.provideModel({ syncNow });
  host.App.registerUIItem('toolbar', {
    key: 'margin-sync',
    template:
      '<a class="button" data-on-click="syncNow" title="Sync Margin"><i class="ti ti-highlight"></i></a>',
  });
  host.App.registerCommandPalette({ key: 'margin-sync-now', label: 'Margin: sync now' }, syncNow);
  host.App.registerCommandPalette({ key: 'margin-connect', label: 'Margin: connect' }, connect);
  host.App.registerCommandPalette({ key: 'margin-disconnect', label: 'Margin: disconnect' }, async () => {
    await client.disconnect();
    announce();
  });

  const minutes = () => Math.max(0, Number(settings().intervalMinutes) || 0);
  let scheduled = minutes();
  client.schedule(scheduled);
  // Saving the sync state changes the settings too: reschedule only when the interval changed.
  host.onSettingsChanged(() => {
    if (minutes() === scheduled) return;
    scheduled = minutes();
    client.schedule(scheduled);
  });
  host.beforeunload(async () => client.dispose());
  if (settings().syncOnStart !== false && client.connected) void client.sync();
}

const host = logseqHost();
host.ready(() => main(host)).catch((error: unknown) => console.error('Margin sync', error));
