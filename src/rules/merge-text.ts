import { diff3Merge } from 'node-diff3';

/**
 * Merges two edits of the same text made from a common base, line by line (diff3). Where both
 * sides changed the same lines, both versions are kept — the stored one first, then the
 * incoming lines it does not already have — so a concurrent edit never loses text.
 */
export function mergeText(base: string, stored: string, incoming: string): string {
  if (stored === base) return incoming;
  if (incoming === base || incoming === stored) return stored;
  const regions = diff3Merge(stored.split('\n'), base.split('\n'), incoming.split('\n'), {
    excludeFalseConflicts: true,
  });
  const lines: string[] = [];
  for (const region of regions) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict) {
      lines.push(...region.conflict.a);
      const kept = new Set(region.conflict.a);
      lines.push(...region.conflict.b.filter((line) => !kept.has(line)));
    }
  }
  return lines.join('\n');
}
