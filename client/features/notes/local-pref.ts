import { useCallback, useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../../src/constants.ts';
import { isEnumValue, NoteSort, type SortOrder, ViewStyle } from '../../../src/enums.ts';

type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

const listeners = new Map<string, Set<() => void>>();

function read(key: StorageKey): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Writes a value (null removes it) and tells every hook reading that key. */
export function writePref(key: StorageKey, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage may be full or disabled; the preference then lasts for this page load only.
  }
  for (const listener of listeners.get(key) ?? []) listener();
}

function subscribe(key: StorageKey, onChange: () => void): () => void {
  let set = listeners.get(key);
  if (!set) {
    set = new Set();
    listeners.set(key, set);
  }
  set.add(onChange);
  const onStorage = (event: StorageEvent) => {
    if (event.key === key) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    set.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}

/** The raw stored string for `key`, live across hooks and tabs. */
export function useStoredString(key: StorageKey): string | null {
  return useSyncExternalStore(
    useCallback((onChange) => subscribe(key, onChange), [key]),
    () => read(key),
  );
}

/** A JSON string array stored under `key` (recent keywords, expanded folders). */
export function readStoredList(key: StorageKey): string[] {
  return parseListMemo(read(key));
}

export function useStoredList(key: StorageKey): string[] {
  // Parsed once per stored value, so the array identity only changes when the value does.
  return parseListMemo(useStoredString(key));
}

const listCache = new Map<string | null, string[]>();
function parseListMemo(raw: string | null): string[] {
  let list = listCache.get(raw);
  if (!list) {
    try {
      const value: unknown = JSON.parse(raw ?? '[]');
      list = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    } catch {
      list = [];
    }
    if (listCache.size > 50) listCache.clear();
    listCache.set(raw, list);
  }
  return list;
}

export function writeStoredList(key: StorageKey, list: readonly string[]): void {
  writePref(key, JSON.stringify(list));
}

/** The list's view style (article, card, list), remembered on this device. */
export function useViewStyle(): ViewStyle {
  const raw = useStoredString(STORAGE_KEYS.viewStyle);
  return isEnumValue(ViewStyle, raw) ? raw : ViewStyle.article;
}

/** A note sort; anything else (position in article, which orders highlights) is newest first. */
function sortOf(raw: string | null): SortOrder {
  return isEnumValue(NoteSort, raw) ? raw : NoteSort.newestFirst;
}

/** The remembered sort; a `sort` in the address wins over it. */
export function useStoredSort(): SortOrder {
  return sortOf(useStoredString(STORAGE_KEYS.sort));
}

/** The remembered sort, read once (before React renders). */
export function readStoredSort(): SortOrder {
  return sortOf(read(STORAGE_KEYS.sort));
}
