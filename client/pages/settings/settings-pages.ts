/**
 * The child pages of /personSetting. Aliases share a screen: sync and obsidian,
 * synctoken and gentokn, wucaihelp and assistant.
 */
export const SETTINGS_SECTIONS = [
  {
    titleKey: 'settings.sectionAccount',
    pages: ['user', 'email', 'updatepassword', 'authbind', 'membership', 'paylog', 'deleteaccount'],
  },
  {
    titleKey: 'settings.sectionIntegrations',
    pages: ['sync', 'siyuan', 'logseq', 'flomo', 'workflowy', 'synctoken', 'openapi'],
  },
  {
    titleKey: 'settings.sectionTools',
    pages: [
      'color',
      'extsettings',
      'plugins',
      'assistant',
      'debuginfo',
      'guide',
      'changelog',
      'feedback',
      'rateus',
    ],
  },
] as const;

const SETTINGS_ALIASES: Record<string, string> = {
  obsidian: 'sync',
  gentokn: 'synctoken',
  wucaihelp: 'assistant',
};

export type SettingsPage = (typeof SETTINGS_SECTIONS)[number]['pages'][number];

const ALL: readonly string[] = SETTINGS_SECTIONS.flatMap((s) => s.pages);

/** The screen a /personSetting/:page path shows, or null for an unknown page (→ /404). */
export function settingsPageFor(segment: string): SettingsPage | null {
  const page = SETTINGS_ALIASES[segment] ?? segment;
  return ALL.includes(page) ? (page as SettingsPage) : null;
}
