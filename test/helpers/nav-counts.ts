import type { EntityManager } from '@mikro-orm/postgresql';
import { expect } from 'vitest';
import { clock } from '../../server/clock.ts';
import { NAV_VIEWS, type NavCounts } from '../../src/schemas/notes.ts';
import type { callerFor } from './context.ts';
import { navCountsByDefinition, tagCountsByDefinition } from './count-definitions.ts';

type Caller = ReturnType<typeof callerFor>;

/** The left-nav counts, each checked against the length of the list its entry opens (up to 100 notes). */
export async function countsAsListed(caller: Caller): Promise<NavCounts> {
  const counts = await caller.notes.counts();
  for (const nav of NAV_VIEWS) {
    const listed = (await caller.notes.list({ nav, limit: 100 })).items.length;
    expect({ nav, count: counts[nav] }).toEqual({ nav, count: listed });
  }
  return counts;
}

/**
 * The sidebar's counts as the user gets them (notes.counts and the Tag section's notes.tags),
 * checked to equal their definition counted from the user's notes and highlights; `step` names
 * the change just made, for the failure message.
 */
export async function countsAsDefined(
  em: EntityManager,
  caller: Caller,
  userId: number,
  step: string,
): Promise<{ counts: NavCounts; tags: Awaited<ReturnType<Caller['notes']['tags']>> }> {
  const [counts, tags] = await Promise.all([caller.notes.counts(), caller.notes.tags()]);
  const nav = navCountsByDefinition(userId, clock.now());
  const tagged = tagCountsByDefinition(userId);
  const [definedCounts] = await em.fork().execute<NavCounts[]>(nav.sql, nav.params);
  const definedTags = await em.fork().execute(tagged.sql, tagged.params);
  expect({ step, counts, tags }).toEqual({ step, counts: definedCounts, tags: definedTags });
  return { counts, tags };
}
