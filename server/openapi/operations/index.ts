import type { Operation } from '../operation.ts';
import { dailyOperations } from './daily.ts';
import { extensionOperations } from './extension.ts';
import { folderOperations } from './folders.ts';
import { highlightOperations } from './highlights.ts';
import { noteOperations } from './notes.ts';
import { tagOperations } from './tags.ts';

/** Every Open API operation, in the document's order. */
export const OPERATIONS: readonly Operation[] = [
  ...noteOperations,
  ...highlightOperations,
  ...tagOperations,
  ...folderOperations,
  ...dailyOperations,
  ...extensionOperations,
];
