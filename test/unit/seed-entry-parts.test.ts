import { describe, expect, test } from 'vitest';
import { noteIdOfSeedX, seedNoteIdX } from '../../server/sync/seed-note-id.ts';
import { newId } from '../../src/rules/id.ts';
import { textFragment } from '../../src/text/text-fragment.ts';

describe('noteIdX', () => {
  test('is lower-case letters, digits and `_`, and decodes to the id, for any id', () => {
    const ids = ['-', 'A', 'Z-z', '--AA--', ...Array.from({ length: 500 }, () => newId())];
    for (const id of ids) {
      const x = seedNoteIdX(id);
      expect(x).toMatch(/^[a-z0-9_]+$/);
      expect(noteIdOfSeedX(x)).toBe(id);
    }
    expect(seedNoteIdX('abc123xyz')).toBe('abc123xyz');
    expect(seedNoteIdX('Wq-k')).toBe('_wq__k');
  });

  test('two ids that differ only in case have noteIdXs that differ (case-insensitive file systems)', () => {
    expect(seedNoteIdX('abcDEF12').toLowerCase()).not.toBe(seedNoteIdX('ABCdef12').toLowerCase());
  });

  test('an id sent back as it is decodes to itself', () => {
    for (let i = 0; i < 200; i++) {
      const id = newId();
      expect(noteIdOfSeedX(id)).toBe(id);
    }
  });
});

describe('textFragment', () => {
  test('a short passage whole, whitespace collapsed, `-` `,` `&` escaped', () => {
    expect(textFragment('  a  well-known,\n\tfact & more ')).toBe(
      '#:~:text=a%20well%2Dknown%2C%20fact%20%26%20more',
    );
  });

  test('a long passage by its first and last words', () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    expect(decodeURIComponent(textFragment(words))).toBe(
      '#:~:text=word0 word1 word2 word3 word4,word25 word26 word27 word28 word29',
    );
  });

  test('a long passage without spaces (Chinese) by its first and last characters', () => {
    const passage =
      '天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳云腾致雨露结为霜金生丽水玉出昆冈剑号巨阙珠称夜光果珍李柰菜重芥姜海咸河淡鳞潜羽翔龙师火帝鸟官人皇'.repeat(
        2,
      );
    const [start, end] = decodeURIComponent(textFragment(passage)).slice('#:~:text='.length).split(',');
    expect(passage.startsWith(start!)).toBe(true);
    expect(passage.endsWith(end!)).toBe(true);
    expect(start!.length).toBeGreaterThan(10);
  });

  test('no text, no fragment', () => {
    expect(textFragment(' \n ')).toBe('');
  });
});
