import type { NavView } from '../../../src/schemas/notes.ts';
import type { IconName } from '../../components/icons/Icon.tsx';

/**
 * The spec's left navigation, in its order. Views filter the list (`?nav=` carries the id);
 * sections (Tag, Folder, Navigation) expand in the sidebar instead.
 */
export const NAV_ENTRIES = [
  { id: 'all', labelKey: 'nav.all', icon: 'inbox', kind: 'view' },
  { id: 'later', labelKey: 'nav.later', icon: 'clock', kind: 'view' },
  { id: 'star', labelKey: 'nav.star', icon: 'star', kind: 'view' },
  { id: 'archive', labelKey: 'nav.archive', icon: 'archive', kind: 'view' },
  { id: 'unarchive', labelKey: 'nav.unarchive', icon: 'unarchive', kind: 'view' },
  { id: 'trash', labelKey: 'nav.trash', icon: 'trash', kind: 'view' },
  { id: '24h', labelKey: 'nav.last24Hours', icon: 'day', kind: 'view' },
  { id: 'tag', labelKey: 'nav.tag', icon: 'tag', kind: 'section' },
  { id: 'notag', labelKey: 'nav.noTag', icon: 'noTag', kind: 'view' },
  { id: 'folder', labelKey: 'nav.folder', icon: 'folder', kind: 'section' },
  { id: 'navigation', labelKey: 'nav.navigation', icon: 'compass', kind: 'section' },
] as const satisfies readonly {
  id: string;
  labelKey: string;
  icon: IconName;
  kind: 'view' | 'section';
}[];

export type NavEntry = (typeof NAV_ENTRIES)[number];
export type NavViewEntry = Extract<NavEntry, { kind: 'view' }>;

/** The list view for `?nav=`; anything unknown is All. */
export function navEntry(id: string | null): NavViewEntry {
  return NAV_ENTRIES.find((e): e is NavViewEntry => e.kind === 'view' && e.id === id) ?? NAV_ENTRIES[0];
}

// Compile-time check: every view entry is a view the server knows, and the reverse.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
true satisfies Same<NavViewEntry['id'], NavView>;
