import { defineEntity, p } from '@mikro-orm/core';
import { ClipStatus, Flow, NoteKind } from '../../../src/enums.ts';
import { clock } from '../../clock.ts';
import { Folder } from './folder.entity.ts';
import { User } from './user.entity.ts';

/**
 * What a user keeps: a clipped web page (one per normalised URL per user) or a daily note (no
 * URL; its Markdown is the content's text). The note list only ever shows web notes.
 */
export const NoteSchema = defineEntity({
  name: 'Note',
  tableName: 'note',
  uniques: [
    { properties: ['user', 'urlHash'] },
    {
      name: 'note_daily_main_unique',
      expression:
        'create unique index "note_daily_main_unique" on "note" ("user_id", "daily_date") where "daily_main"',
    },
  ],
  indexes: [{ properties: ['user', 'createdAt'] }],
  properties: {
    id: p.string().length(32).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    kind: p.smallint().default(NoteKind.web),
    /** The page's address; empty for a daily note. */
    url: p.text().default(''),
    /** Null for a daily note, so days never collide with pages in the unique index. */
    urlHash: p.string().length(64).nullable(),
    title: p.text().default(''),
    siteName: p.string().length(255).nullable(),
    author: p.string().length(255).nullable(),
    publishedAt: p.datetime().nullable(),
    leadImageUrl: p.text().nullable(),
    /** The lead image as Margin stored it (its `/files/…` address), once stored. */
    image: p.text().nullable(),
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
    /** Where the reader left it: the offset in the plain text of the first line on screen. */
    readingOffset: p.integer().nullable(),
    /** How much of it was read then, 0–1, for display. */
    readingFraction: p.float().nullable(),
    readAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
    updatedAt: p
      .datetime()
      .onCreate(() => clock.now())
      .onUpdate(() => clock.now()),
    clippedAt: p.datetime().nullable(),
    /** The day a daily note belongs to, in the user's time zone. */
    dailyDate: p.string().length(10).nullable(),
    /** The day's own note (one per user and day); the day's other entries are false. */
    dailyMain: p.boolean().default(false),
    /** Bumped on every write of a daily note; an editor saves against the version it read. */
    version: p.integer().default(1),
  },
});

export class Note extends NoteSchema.class {}
NoteSchema.setClass(Note);
