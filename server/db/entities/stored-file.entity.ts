import { defineEntity, p } from '@mikro-orm/core';
import { clock } from '../../clock.ts';
import { Note } from './note.entity.ts';
import { User } from './user.entity.ts';

/**
 * An image of a note as Margin stored it (its key in the store, sniffed type, size, dimensions and
 * content hash), or refused (`error`, no key). One row per image address per note. A note deleted
 * for good leaves its rows without a note until their files are removed.
 */
export const StoredFileSchema = defineEntity({
  name: 'StoredFile',
  tableName: 'stored_file',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    note: () => p.manyToOne(Note).nullable().deleteRule('set null'),
    sourceUrl: p.text(),
    key: p.string().length(300).nullable(),
    contentType: p.string().length(32).nullable(),
    bytes: p.integer().nullable(),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    hash: p.string().length(64).columnType('char(64)').nullable(),
    /** Why the image was not stored: a refusal reason (too large, not an image, …). */
    error: p.string().length(32).nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
  },
});

export class StoredFile extends StoredFileSchema.class {}
StoredFileSchema.setClass(StoredFile);
