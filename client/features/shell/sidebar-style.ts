import { useCallback, useSyncExternalStore } from 'react';
import { SidebarStyle } from '../../../src/enums.ts';

const KEY = 'margin.sidebarStyle';
const NAMES = {
  [SidebarStyle.list]: 'list',
  [SidebarStyle.mini]: 'mini',
  [SidebarStyle.hide]: 'hide',
} as const;
const ORDER = [SidebarStyle.list, SidebarStyle.mini, SidebarStyle.hide] as const;
const listeners = new Set<() => void>();

function read(): SidebarStyle {
  const value = Number(localStorage.getItem(KEY));
  return ORDER.find((s) => s === value) ?? SidebarStyle.list;
}

/** Spec sidebar styles: list 3 (full), mini 1 (icons), hide 2. Remembered on this device. */
export function useSidebarStyle() {
  const style = useSyncExternalStore((onChange) => {
    listeners.add(onChange);
    return () => listeners.delete(onChange);
  }, read);
  const cycle = useCallback(() => {
    const next = ORDER[(ORDER.indexOf(style) + 1) % ORDER.length] ?? SidebarStyle.list;
    localStorage.setItem(KEY, String(next));
    for (const l of listeners) l();
  }, [style]);
  return { style: NAMES[style], cycle };
}
