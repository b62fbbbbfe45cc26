import { expect } from 'vitest';
import { NAV_VIEWS, type NavCounts } from '../../src/schemas/notes.ts';
import type { callerFor } from './context.ts';

/** The left-nav counts, each checked against the length of the list its entry opens (up to 100 notes). */
export async function countsAsListed(caller: ReturnType<typeof callerFor>): Promise<NavCounts> {
  const counts = await caller.notes.counts();
  for (const nav of NAV_VIEWS) {
    const listed = (await caller.notes.list({ nav, limit: 100 })).items.length;
    expect({ nav, count: counts[nav] }).toEqual({ nav, count: listed });
  }
  return counts;
}
