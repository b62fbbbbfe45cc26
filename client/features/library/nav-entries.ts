import type { IconName } from '../../components/icons/Icon.tsx';

/** The spec's left navigation, in its order. `id` is what `?nav=` carries in the URL. */
export const NAV_ENTRIES = [
  { id: 'all', labelKey: 'nav.all', icon: 'inbox' },
  { id: 'later', labelKey: 'nav.later', icon: 'clock' },
  { id: 'star', labelKey: 'nav.star', icon: 'star' },
  { id: 'archive', labelKey: 'nav.archive', icon: 'archive' },
  { id: 'unarchive', labelKey: 'nav.unarchive', icon: 'unarchive' },
  { id: 'trash', labelKey: 'nav.trash', icon: 'trash' },
  { id: '24h', labelKey: 'nav.last24Hours', icon: 'day' },
  { id: 'tag', labelKey: 'nav.tag', icon: 'tag' },
  { id: 'notag', labelKey: 'nav.noTag', icon: 'noTag' },
  { id: 'folder', labelKey: 'nav.folder', icon: 'folder' },
  { id: 'navigation', labelKey: 'nav.navigation', icon: 'compass' },
] as const satisfies readonly { id: string; labelKey: string; icon: IconName }[];

export type NavEntryId = (typeof NAV_ENTRIES)[number]['id'];

export function navEntry(id: string | null) {
  return NAV_ENTRIES.find((e) => e.id === id) ?? NAV_ENTRIES[0];
}
