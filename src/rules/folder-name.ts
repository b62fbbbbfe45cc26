import { FOLDER_NAME_MAX } from '../constants.ts';
import { zText } from './text.ts';

export type FolderNameError = 'empty' | 'forbiddenChars' | 'tooLong';
export type FolderNameResult = { ok: true; name: string } | { ok: false; error: FolderNameError };

export const FOLDER_NAME_ERROR_KEYS: Readonly<Record<FolderNameError, string>> = {
  empty: 'errors.folderNameEmpty',
  forbiddenChars: 'errors.folderNameChars',
  tooLong: 'errors.folderNameTooLong',
};

const FORBIDDEN = /[/:\\]/;

/**
 * Folder name rules: not empty after trimming, no / : or backslash, at most 32
 * characters counted as Unicode code points. On success `name` is the trimmed NFC form to store.
 */
export function validateFolderName(raw: string): FolderNameResult {
  const name = raw.normalize('NFC').trim();
  if (name === '') return { ok: false, error: 'empty' };
  if (FORBIDDEN.test(name)) return { ok: false, error: 'forbiddenChars' };
  if ([...name].length > FOLDER_NAME_MAX) return { ok: false, error: 'tooLong' };
  return { ok: true, name };
}

/** What a folder name may be before trimming: room for padding, not for a megabyte of spaces. */
const FOLDER_NAME_RAW_MAX = 256;

/** Folder name schema: trims and NFC-normalises, then applies `validateFolderName`. */
export const zFolderName = zText()
  .max(FOLDER_NAME_RAW_MAX, FOLDER_NAME_ERROR_KEYS.tooLong)
  .normalize('NFC')
  .trim()
  .superRefine((value, ctx) => {
    const result = validateFolderName(value);
    if (!result.ok) ctx.addIssue({ code: 'custom', message: FOLDER_NAME_ERROR_KEYS[result.error] });
  });
