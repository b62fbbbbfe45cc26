import { z } from 'zod';
import { Flow, SortOrder } from '../enums.ts';
import { zFolderName } from '../rules/folder-name.ts';
import { zText } from '../rules/text.ts';
import { zTag } from './highlights.ts';
import { zPageId, zPageSummary } from './notes.ts';

/** Left-navigation entries that filter the list by state. */
export const NAV_VIEWS = ['all', 'later', 'star', 'archive', 'unarchive', 'trash', '24h', 'notag'] as const;
export type NavView = (typeof NAV_VIEWS)[number];

export const BULK_MAX = 500;
export const zFolderId = zText()
  .max(32, 'errors.notFound')
  .regex(/^[0-9A-Za-z-]{8,32}$/, 'errors.notFound');

export const zLibraryListInput = z.object({
  nav: z.enum(NAV_VIEWS).default('all'),
  tag: zTag.optional(),
  folderId: zFolderId.optional(),
  /** One search box: `#word` becomes a tag filter, the rest searches titles, text, highlights and notes. */
  q: zText().max(200).optional(),
  sort: z.enum(Object.values(SortOrder) as [SortOrder, ...SortOrder[]]).default(SortOrder.newestFirst),
  limit: z.number().int().min(1).max(100).default(50),
  cursor: zText().max(300).nullish(),
});
export type LibraryListInput = z.infer<typeof zLibraryListInput>;

export const zLibraryList = z.object({ items: z.array(zPageSummary), nextCursor: z.string().nullable() });

export const zPageIdsInput = z.object({ ids: z.array(zPageId).min(1).max(BULK_MAX) });
export const zSetFlowInput = zPageIdsInput.extend({
  flow: z.union(
    [z.literal(Flow.inbox), z.literal(Flow.later), z.literal(Flow.shortlist), z.literal(Flow.archive)],
    {
      message: 'errors.invalidFlow',
    },
  ),
});
export const zTagPagesInput = zPageIdsInput.extend({ tag: zTag });
export const zRenameTagInput = z.object({ from: zTag, to: zTag });
export const zMergeTagsInput = z.object({ from: z.array(zTag).min(1).max(50), to: zTag });
export const zChanged = z.object({ changed: z.number().int() });

export const zNavCounts = z.object({
  all: z.number().int(),
  later: z.number().int(),
  star: z.number().int(),
  archive: z.number().int(),
  unarchive: z.number().int(),
  trash: z.number().int(),
  '24h': z.number().int(),
  notag: z.number().int(),
});
export type NavCounts = z.infer<typeof zNavCounts>;

export const zTagCount = z.object({ tag: z.string(), pages: z.number().int(), highlights: z.number().int() });

export const zFolder = z.object({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
  pageCount: z.number().int(),
  createdAt: z.date(),
});
export type FolderView = z.infer<typeof zFolder>;

export const zCreateFolderInput = z.object({ name: zFolderName, parentId: zFolderId.nullish() });
export const zRenameFolderInput = z.object({ id: zFolderId, name: zFolderName });
export const zFolderIdInput = z.object({ id: zFolderId });
export const zMoveToFolderInput = zPageIdsInput.extend({ folderId: zFolderId.nullable() });
