import { defineEntity, p } from '@mikro-orm/core';
import type { HighlightSelectors } from '../../../src/anchoring/types.ts';
import { ColourSlot, CoreType, HighlightStyle, NoteKind } from '../../../src/enums.ts';
import { clock } from '../../clock.ts';
import { Note } from './note.entity.ts';
import { User } from './user.entity.ts';

/**
 * The spec's detail card: a highlight (core type 1), an image highlight (2), a text note on a
 * note (6) or a daily note's text (kind 3). Ids come from the spec's alphabet and may be made by
 * the client, so a retried create is harmless. The key is (user, id): an id names a highlight
 * only within its owner's highlights, so nobody can take an id another user is about to use.
 */
export const HighlightSchema = defineEntity({
  name: 'Highlight',
  tableName: 'highlight',
  primaryKeys: ['user', 'id'],
  indexes: [{ properties: ['user', 'createdAt'] }, { properties: ['note', 'positionStart'] }],
  uniques: [
    {
      name: 'highlight_daily_main_unique',
      expression:
        'create unique index "highlight_daily_main_unique" on "highlight" ("user_id", "daily_date") where "daily_main"',
    },
  ],
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    id: p.string().length(64).primary(),
    note: () => p.manyToOne(Note).nullable().deleteRule('cascade'),
    kind: p.smallint().default(NoteKind.normal),
    coreType: p.smallint().default(CoreType.highlight),
    text: p.text().default(''),
    slotId: p.smallint().default(ColourSlot.c1),
    style: p.smallint().default(HighlightStyle.background),
    imageUrl: p.text().nullable(),
    selectors: p.json<HighlightSelectors>().nullable(),
    /** Where the highlight sits in the note's text now; null when detached or not a highlight. */
    positionStart: p.integer().nullable(),
    positionEnd: p.integer().nullable(),
    detached: p.boolean().default(false),
    annotationId: p.string().length(64).nullable(),
    annotation: p.text().nullable(),
    annotatedAt: p.datetime().nullable(),
    tags: p.array().columnType('text[]').default([]),
    /** The day a daily note belongs to, in the user's time zone. */
    dailyDate: p.string().length(10).nullable(),
    /** The day's own note (one per user and day); the day's other entries are false. */
    dailyMain: p.boolean().default(false),
    /** Bumped on every write of a daily note; an editor saves against the version it read. */
    version: p.integer().default(1),
    createdAt: p.datetime().onCreate(() => clock.now()),
    updatedAt: p
      .datetime()
      .onCreate(() => clock.now())
      .onUpdate(() => clock.now()),
  },
});

export class Highlight extends HighlightSchema.class {}
HighlightSchema.setClass(Highlight);
