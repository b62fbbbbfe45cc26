import { LINK_DETECTION_MIN } from '../constants.ts';
import { CoreType } from '../enums.ts';

/**
 * A note counts as having a link only when its text is longer than 15 characters (code points)
 * and its core type is 6 (text-type note).
 */
export function textNoteHasLink(
  text: string | null | undefined,
  coreType: number | null | undefined,
): boolean {
  if (coreType !== CoreType.textNote || text == null) return false;
  return [...text].length > LINK_DETECTION_MIN;
}
