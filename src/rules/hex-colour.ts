/** A highlight colour as an account stores it: '#RRGGBB' (the spec's alpha suffixes come when drawn). */
export const STORED_COLOUR_PATTERN = /^#[0-9A-Fa-f]{6}$/;

export function isStoredColour(value: unknown): value is string {
  return typeof value === 'string' && STORED_COLOUR_PATTERN.test(value);
}
