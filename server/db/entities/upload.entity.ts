import { defineEntity, p } from '@mikro-orm/core';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/**
 * Where an upload key is (server/domain/uploads/uploads.service.ts): `issued` with its policy;
 * `uploaded` once the local store took its one file (a bucket takes uploads without Margin, so
 * there it stays issued); `spent` once completing saved the note, or the key expired, and its file
 * was removed. Only an issued key takes a file, and a stored file is kept only under a key not spent.
 */
export type UploadState = 'issued' | 'uploaded' | 'spent';

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
    state: p.string().length(16).$type<UploadState>().default('issued'),
    /** Set once by the first completion; the note it saved. */
    completedAt: p.datetime().nullable(),
    noteId: p.string().length(64).nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
  },
});

export class Upload extends UploadSchema.class {}
UploadSchema.setClass(Upload);
