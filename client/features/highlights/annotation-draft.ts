/**
 * Annotations being written but not saved, kept in localStorage per user and highlight, so that
 * closing the editor without saving (Esc, a click outside the card, leaving the note) never
 * loses what was typed. An entry lives until the annotation is saved or the draft discarded.
 */
const PREFIX = 'margin.annotationDraft.';

export function annotationDraftKey(accountId: string, highlightId: string): string {
  return `${PREFIX}${accountId}.${highlightId}`;
}

export function readAnnotationDraft(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeAnnotationDraft(key: string, text: string): void {
  try {
    localStorage.setItem(key, text);
  } catch {
    // Storage full or disabled: the draft lasts as long as the open editor.
  }
}

export function clearAnnotationDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing to clean up when storage is unavailable.
  }
}
