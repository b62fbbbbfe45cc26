import { describe, expect, test } from 'vitest';
import { parseOutline, serializeOutline } from '../../plugins/logseq/outline.ts';

describe('Logseq outline Markdown', () => {
  test('page properties, nesting by tabs or spaces, continuation lines', () => {
    const markdown = [
      'margin_id:: n1',
      'url:: https://x.example',
      '',
      '- [[Margin]] Title',
      '  - A highlight',
      '    second line of it',
      '    - An annotation',
      '  - Another',
      '- Last',
    ].join('\n');
    expect(parseOutline(markdown)).toEqual([
      { content: 'margin_id:: n1\nurl:: https://x.example' },
      {
        content: '[[Margin]] Title',
        children: [
          { content: 'A highlight\nsecond line of it', children: [{ content: 'An annotation' }] },
          { content: 'Another' },
        ],
      },
      { content: 'Last' },
    ]);
    expect(parseOutline(markdown.replace(/ {2}/g, '\t'))).toEqual(parseOutline(markdown));
  });

  test('what is written is read back the same (the form Logseq saves: tabs)', () => {
    const canonical = 'margin_id:: n1\n\n- Title\n\t- A highlight\n\t  line two\n\t\t- note\n- Last\n';
    expect(serializeOutline(parseOutline(canonical))).toBe(canonical);
    const spaced = canonical.replace(/\t/g, '  ');
    expect(serializeOutline(parseOutline(spaced))).toBe(canonical);
  });

  test('blocks as Logseq returns them (title instead of content, a pre-block)', () => {
    const blocks = [
      { uuid: '1', title: 'margin_id:: n1', 'preBlock?': true },
      { uuid: '2', content: 'Title', children: [{ uuid: '3', content: 'child' }] },
    ];
    expect(serializeOutline(blocks)).toBe('margin_id:: n1\n\n- Title\n\t- child\n');
  });
});
