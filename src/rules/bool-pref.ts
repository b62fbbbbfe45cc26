/** A boolean preference is stored as 'n' for off and anything else for on. */
export type StoredBool = 'y' | 'n';

export function readBoolPref(value: string | null | undefined, fallback = true): boolean {
  if (value == null) return fallback;
  return value !== 'n';
}

export function writeBoolPref(on: boolean): StoredBool {
  return on ? 'y' : 'n';
}
