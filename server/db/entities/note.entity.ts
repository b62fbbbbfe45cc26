import { defineEntity, p } from '@mikro-orm/core';
import { ClipStatus, Flow } from '../../../src/enums.ts';
import { clock } from '../../clock.ts';
import { Folder } from './folder.entity.ts';
import { User } from './user.entity.ts';

/** A note: a clipped web page, one per normalised URL per user. */
export const NoteSchema = defineEntity({
  name: 'Note',
  tableName: 'note',
  uniques: [{ properties: ['user', 'urlHash'] }],
  indexes: [{ properties: ['user', 'createdAt'] }],
  properties: {
    id: p.string().length(32).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    url: p.text(),
    urlHash: p.string().length(64),
    title: p.text().default(''),
    siteName: p.string().length(255).nullable(),
    author: p.string().length(255).nullable(),
    publishedAt: p.datetime().nullable(),
    leadImageUrl: p.text().nullable(),
    excerpt: p.text().default(''),
    lang: p.string().length(16).nullable(),
    wordCount: p.integer().default(0),
    flow: p.smallint().default(Flow.inbox),
    trashedAt: p.datetime().nullable(),
    folder: () => p.manyToOne(Folder).nullable().deleteRule('set null'),
    tags: p.array().columnType('text[]').default([]),
    clipStatus: p.smallint().default(ClipStatus.queued),
    /** Why the last clip failed: a reason code the client translates. */
    clipError: p.string().length(64).nullable(),
    clipAttempts: p.smallint().default(0),
    /** 'url': the worker fetches it; 'html': the client sent the page (extension, bookmarklet). */
    source: p.string().length(8).default('url'),
    highlightCount: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => clock.now()),
    updatedAt: p
      .datetime()
      .onCreate(() => clock.now())
      .onUpdate(() => clock.now()),
    clippedAt: p.datetime().nullable(),
  },
});

export class Note extends NoteSchema.class {}
NoteSchema.setClass(Note);
