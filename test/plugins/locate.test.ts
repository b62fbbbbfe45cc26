import { describe, expect, test } from 'vitest';
import { declaredNoteId, idCandidates } from '../../plugins/core/locate.ts';
import { dirName, isUnder, joinPath } from '../../plugins/core/vault.ts';

describe('finding a note by its file', () => {
  test('ids with hyphens are among the candidates of `<title>-<id>.md`', () => {
    expect(idCandidates('My-long-title-abc-DEF-12345.md')).toContain('abc-DEF-12345');
    expect(idCandidates('My-long-title-abc-DEF-12345.md')).toContain('DEF-12345');
    expect(idCandidates('no id.md')).toEqual([]);
    expect(idCandidates('Title-abcdefgh.txt')).toEqual([]);
  });

  test('the id declared in front matter or as a Logseq property', () => {
    expect(declaredNoteId('---\ntitle: x\nmargin_id: "ab-12345678"\n---\nbody margin_id: no')).toBe(
      'ab-12345678',
    );
    expect(declaredNoteId('---\ntitle: x\n---\nmargin_id: not-in-front-matter\n')).toBeNull();
    expect(declaredNoteId('title:: x\nmargin-id:: abcdefgh12\n\n- block')).toBe('abcdefgh12');
    expect(declaredNoteId('- margin_id:: inside-a-block')).toBeNull();
  });

  test('paths', () => {
    expect(joinPath('/Margin/', '', 'sub//x.md')).toBe('Margin/sub/x.md');
    // A folder setting cannot lead out of the vault.
    expect(joinPath('../../etc', 'Margin/..', 'x.md')).toBe('etc/Margin/x.md');
    expect(dirName('Margin/sub/x.md')).toBe('Margin/sub');
    expect(isUnder('Margin/sub/x.md', 'Margin')).toBe(true);
    expect(isUnder('Marginalia/x.md', 'Margin')).toBe(false);
    expect(isUnder('x.md', '')).toBe(true);
  });
});
