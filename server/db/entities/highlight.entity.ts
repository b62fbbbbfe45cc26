import { defineEntity, p } from '@mikro-orm/core';
import type { HighlightSelectors } from '../../../src/anchoring/types.ts';
import { ColourSlot, CoreType, HighlightStyle } from '../../../src/enums.ts';
import { clock } from '../../clock.ts';
import { Note } from './note.entity.ts';
import { User } from './user.entity.ts';

/**
 * The spec's detail card: a highlight (core type 1), an image highlight (2) or a text note (6)
 * on a note. Ids come from the spec's alphabet and may be made by
 * the client, so a retried create is harmless. The key is (user, id): an id names a highlight
 * only within its owner's highlights, so nobody can take an id another user is about to use.
 */
export const HighlightSchema = defineEntity({
  name: 'Highlight',
  tableName: 'highlight',
  primaryKeys: ['user', 'id'],
  indexes: [{ properties: ['user', 'createdAt'] }, { properties: ['note', 'positionStart'] }],
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    id: p.string().length(64).primary(),
    note: () => p.manyToOne(Note).nullable().deleteRule('cascade'),
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
    createdAt: p.datetime().onCreate(() => clock.now()),
    updatedAt: p
      .datetime()
      .onCreate(() => clock.now())
      .onUpdate(() => clock.now()),
  },
});

export class Highlight extends HighlightSchema.class {}
HighlightSchema.setClass(Highlight);
