import type { z } from 'zod';
import type { DailyNote } from '../../src/schemas/daily.ts';
import type { FolderView } from '../../src/schemas/folders.ts';
import type { Highlight } from '../../src/schemas/highlights.ts';
import type { NoteDetail, NoteSummary } from '../../src/schemas/notes.ts';
import type {
  ApiHighlight,
  ApiNote,
  zApiDailyNote,
  zApiFolder,
  zApiNoteDetail,
} from '../../src/schemas/openapi.ts';

// The services' shapes (the app's) as the Open API sends them: times in epoch seconds.

/** A time of the services' shapes (epoch milliseconds, or a Date) as whole epoch seconds. */
const epochSeconds = (time: number | Date): number => Math.floor(Number(time) / 1000);

/** `image` is Margin's own copy, served to the signed-in reader only: the API keeps the page's address. */
export function toApiNote({ createdAt, updatedAt, image: _image, ...note }: NoteSummary): ApiNote {
  return { ...note, createAt: epochSeconds(createdAt), updateAt: epochSeconds(updatedAt) };
}

export function toApiHighlight({
  createdAt,
  updatedAt,
  annotation,
  hasLink: _,
  ...highlight
}: Highlight): ApiHighlight {
  return {
    ...highlight,
    annotation: annotation?.message ?? null,
    createAt: epochSeconds(createdAt),
    updateAt: epochSeconds(updatedAt),
  };
}

export function toApiNoteDetail(
  {
    author,
    publishedAt,
    lang,
    wordCount,
    contentHtml,
    text,
    readingProgress,
    imagesPending: _imagesPending,
    ...summary
  }: NoteDetail,
  highlights: Highlight[],
): z.input<typeof zApiNoteDetail> {
  return {
    ...toApiNote(summary),
    author,
    publishedAt: publishedAt ? epochSeconds(publishedAt) : null,
    lang,
    wordCount,
    contentHtml,
    text,
    readingProgress,
    highlights: highlights.map(toApiHighlight),
  };
}

export function toApiFolder({ createdAt, ...folder }: FolderView): z.input<typeof zApiFolder> {
  return { ...folder, createAt: epochSeconds(createdAt) };
}

export function toApiDailyNote({ updatedAt, ...note }: DailyNote): z.input<typeof zApiDailyNote> {
  return { ...note, updateAt: updatedAt ? epochSeconds(updatedAt) : null };
}

/** A service's `{ items, nextCursor }` as the API's page. */
export function toApiPage<T, U>(page: { items: T[]; nextCursor: string | null }, map: (item: T) => U) {
  return { items: page.items.map(map), next_cursor: page.nextCursor };
}
