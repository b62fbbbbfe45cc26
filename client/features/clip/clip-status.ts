import { ClipStatus } from '../../../src/enums.ts';

/** How often a note that is still being clipped is asked for again. */
export const CLIP_POLL_MS = 1500;

/** Queued (3) or processing (4): the note will change by itself, so it is worth polling. */
export function isClipping(status: number): boolean {
  return status === ClipStatus.queued || status === ClipStatus.processing;
}

/** The spec's three clip messages (section 8); null for a finished note. */
export function clipStatusKey(status: number): string | null {
  if (status === ClipStatus.processing) return 'clip.status.processing';
  if (status === ClipStatus.queued) return 'clip.status.queued';
  if (status === ClipStatus.failed) return 'clip.status.failed';
  return null;
}

/**
 * The translation key for a failure reason code: 'fetch:http_status' → 'clip.reasons.fetchHttpStatus',
 * 'extract:out-of-memory' → 'clip.reasons.extractOutOfMemory'. Unknown codes fall back to
 * 'clip.reasons.unknown' at translation time.
 */
export function clipReasonKey(reason: string): string {
  const camel = reason.toLowerCase().replace(/[^a-z0-9]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return `clip.reasons.${camel}`;
}
