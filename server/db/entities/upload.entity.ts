import { defineEntity, p } from '@mikro-orm/core';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/**
 * An upload policy the server issued: the key its holder may write, for which page, until when.
 * Completing it (the policy's callback) parses the uploaded page into the note for `url` once.
 */
export const UploadSchema = defineEntity({
  name: 'Upload',
  tableName: 'upload',
  properties: {
    key: p.string().length(200).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    url: p.text(),
    expiresAt: p.datetime(),
    /** Set once by the first completion; the note it saved. */
    completedAt: p.datetime().nullable(),
    noteId: p.string().length(64).nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
  },
});

export class Upload extends UploadSchema.class {}
UploadSchema.setClass(Upload);
