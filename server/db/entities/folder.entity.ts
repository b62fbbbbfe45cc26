import { defineEntity, p } from '@mikro-orm/core';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/** A folder of notes; folders nest (a child is deleted with its parent, its notes are kept). */
export const FolderSchema = defineEntity({
  name: 'Folder',
  tableName: 'folder',
  indexes: [{ properties: ['user', 'parent'] }],
  // Names are unique among a folder's children (and among the top level: NULLs not distinct).
  uniques: [
    {
      name: 'folder_name_unique',
      expression:
        'create unique index "folder_name_unique" on "folder" ("user_id", "parent_id", "name") nulls not distinct',
    },
  ],
  properties: {
    id: p.string().length(32).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    parent: () => p.manyToOne(Folder).nullable().deleteRule('cascade'),
    name: p.string().length(128),
    createdAt: p.datetime().onCreate(() => clock.now()),
  },
});

export class Folder extends FolderSchema.class {}
FolderSchema.setClass(Folder);
