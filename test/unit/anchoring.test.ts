import { describe, expect, test } from 'vitest';
import { type AnchorResult, anchor, anchorAll, describeRange } from '../../src/anchoring/index.ts';

const ARTICLE = [
  'Margin keeps what you read. A highlight is stored with its quote and its position.',
  'When the page is parsed again, the highlight moves with its text.',
  'Sometimes the same phrase can appear twice: the same phrase is then told apart by its neighbours.',
  'Nothing is ever dropped; a highlight that cannot be placed is shown as detached.',
].join('\n\n');

function highlight(text: string, phrase: string, occurrence = 0) {
  let start = -1;
  for (let i = 0; i <= occurrence; i++) start = text.indexOf(phrase, start + 1);
  if (start === -1) throw new Error(`phrase not in text: ${phrase}`);
  return describeRange(text, start, start + phrase.length);
}

function placed(text: string, result: AnchorResult): string {
  if (result.status === 'detached') throw new Error('expected the highlight to be placed');
  return text.slice(result.start, result.end);
}

describe('describeRange', () => {
  test('builds a quote with up to 32 code units of context and the position', () => {
    const start = ARTICLE.indexOf('moves with');
    const selectors = describeRange(ARTICLE, start, start + 'moves with'.length);
    expect(selectors.position).toEqual({ type: 'TextPositionSelector', start, end: start + 10 });
    expect(selectors.quote).toEqual({
      type: 'TextQuoteSelector',
      exact: 'moves with',
      prefix: ARTICLE.slice(start - 32, start),
      suffix: ARTICLE.slice(start + 10, start + 42),
    });
  });

  test('clamps to the text, orders reversed ends and shortens context at the edges', () => {
    const selectors = describeRange('hello world', 20, 6, 8);
    expect(selectors.position).toMatchObject({ start: 6, end: 11 });
    expect(selectors.quote).toMatchObject({ exact: 'world', prefix: 'hello ', suffix: '' });
  });

  test('widens a range that splits a surrogate pair or combining sequence to whole graphemes', () => {
    const text = 'ab😀cd e\u0301f 👩‍👩‍👧 end';
    const emoji = text.indexOf('😀');
    expect(describeRange(text, emoji + 1, emoji + 2).quote.exact).toBe('😀');
    const accent = text.indexOf('e\u0301');
    expect(describeRange(text, accent, accent + 1).quote.exact).toBe('e\u0301');
    const family = text.indexOf('👩');
    expect(describeRange(text, family + 2, family + 4).quote.exact).toBe('👩‍👩‍👧');
  });

  test('never starts or ends its context inside a surrogate pair', () => {
    const text = `${'😀'.repeat(40)}target${'😀'.repeat(40)}`;
    const start = text.indexOf('target');
    const { quote } = describeRange(text, start, start + 6, 31);
    expect(quote.prefix).toBe('😀'.repeat(15));
    expect(quote.suffix).toBe('😀'.repeat(15));
  });
});

describe('anchor on unchanged text', () => {
  test('uses the stored position', () => {
    const selectors = highlight(ARTICLE, 'moves with its text');
    expect(anchor(ARTICLE, selectors)).toEqual({
      status: 'exact-position',
      start: selectors.position.start,
      end: selectors.position.end,
      score: 1,
    });
  });

  test('an empty quote cannot be placed and is detached', () => {
    expect(anchor(ARTICLE, describeRange(ARTICLE, 10, 10)).status).toBe('detached');
  });
});

describe('anchor after the text changed', () => {
  test('insertion before the highlight: found by its quote at the new place', () => {
    const selectors = highlight(ARTICLE, 'moves with its text');
    const edited = `A new opening paragraph was added.\n\n${ARTICLE}`;
    const result = anchor(edited, selectors);
    expect(result).toMatchObject({ status: 'exact-quote', start: selectors.position.start + 36 });
    expect(placed(edited, result)).toBe('moves with its text');
  });

  test('insertion inside the highlight: a fuzzy match covering the grown text', () => {
    const selectors = highlight(ARTICLE, 'When the page is parsed again, the highlight moves with its text.');
    const edited = ARTICLE.replace('parsed again', 'parsed once more, again');
    const result = anchor(edited, selectors);
    expect(result.status).toBe('fuzzy');
    expect(placed(edited, result)).toBe(
      'When the page is parsed once more, again, the highlight moves with its text.',
    );
  });

  test('a deleted neighbour: the quote still anchors on the side that is left, with a lower score', () => {
    const selectors = highlight(ARTICLE, 'the highlight moves');
    const edited = ARTICLE.replace(' with its text.', '.');
    const result = anchor(edited, selectors);
    expect(result.status).toBe('exact-position');
    expect(placed(edited, result)).toBe('the highlight moves');
    if (result.status !== 'detached') expect(result.score).toBeLessThan(1);
  });

  test('both neighbours gone: a quote this short does not carry itself, a long one does', () => {
    const short = highlight(ARTICLE, 'the highlight moves');
    const edited = ARTICLE.replace('When the page is parsed again, ', '').replace(' with its text.', '.');
    expect(anchor(edited, short).status).toBe('detached');
    const long = highlight(
      ARTICLE,
      'Sometimes the same phrase can appear twice: the same phrase is then told apart',
    );
    const rewritten = ARTICLE.replace('once: ', '')
      .replace(
        'Sometimes the same phrase can appear twice: the same phrase is then told apart by its neighbours.',
        'Sometimes the same phrase can appear twice: the same phrase is then told apart, as before.',
      )
      .replace('with its text.\n\n', 'with its text, we hope.\n\n');
    expect(placed(rewritten, anchor(rewritten, long))).toBe(long.quote.exact);
  });

  test('whitespace changes (runs, NBSP, line breaks) are matched across', () => {
    const selectors = highlight(ARTICLE, 'A highlight is stored with its quote');
    const edited = ARTICLE.replace('A highlight is stored', 'A\u00a0highlight  is\n stored');
    const result = anchor(edited, selectors);
    expect(result.status).toBe('fuzzy');
    expect(placed(edited, result)).toBe('A\u00a0highlight  is\n stored with its quote');
    if (result.status !== 'detached') expect(result.score).toBe(1);
  });

  test('entity and typography changes (&amp;, &nbsp;, curly quotes, dashes) are matched across', () => {
    const text = `Intro text here. Tom & Jerry's "show" - the classic one. Outro text follows.`;
    const selectors = highlight(text, `Tom & Jerry's "show" - the classic`);
    const edited = 'Intro text here. Tom &amp; Jerry’s&nbsp;“show” – the classic one. Outro text follows.';
    const result = anchor(edited, selectors);
    expect(result.status).toBe('fuzzy');
    expect(placed(edited, result)).toBe('Tom &amp; Jerry’s&nbsp;“show” – the classic');
  });

  test('repeated phrase: the occurrence whose context matches is chosen', () => {
    const selectors = highlight(ARTICLE, 'the same phrase', 0);
    const edited = ARTICLE.replace('Margin keeps', 'Margin, the app, keeps');
    const result = anchor(edited, selectors);
    expect(result.status).toBe('exact-quote');
    if (result.status !== 'detached') {
      expect(result.start).toBe(edited.indexOf('the same phrase'));
    }
    const second = highlight(ARTICLE, 'the same phrase', 1);
    const secondResult = anchor(edited, second);
    if (secondResult.status === 'detached') throw new Error('detached');
    expect(secondResult.start).toBe(edited.indexOf('the same phrase', edited.indexOf('the same phrase') + 1));
  });

  test('the highlighted words were reworded in place while the same words appear elsewhere', () => {
    const text =
      'First part: the quick brown fox ran off. Second part, far away in the story, says the quick brown fox sat.';
    const selectors = highlight(text, 'the quick brown fox', 1);
    const edited = text.replace('says the quick brown fox sat', 'says the quick browne fox sat');
    const result = anchor(edited, selectors);
    expect(result.status).toBe('fuzzy');
    expect(placed(edited, result)).toBe('the quick browne fox');
  });

  test('a highlight whose text is gone is detached, not placed somewhere else', () => {
    const selectors = highlight(ARTICLE, 'Nothing is ever dropped');
    const edited = ARTICLE.replace('Nothing is ever dropped; a', 'Every');
    expect(anchor(edited, selectors)).toEqual({ status: 'detached' });
    expect(anchor('', selectors)).toEqual({ status: 'detached' });
  });

  test('a short quote whose context is gone and text changed is detached', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu';
    const selectors = highlight(text, 'delta');
    const edited = 'something unrelated entirely, with deltoid in it but nothing else the same';
    expect(anchor(edited, selectors).status).toBe('detached');
  });
});

describe('anchor on non-Latin and composed text', () => {
  const CJK = '日本語の文章です。彼は東京に住んでいます。東京は大きな都市です。私は大阪に住んでいます。';

  test('CJK: repeated word chosen by context, moves with insertions', () => {
    const selectors = highlight(CJK, '東京', 1);
    const edited = `新しい段落。${CJK}`;
    const result = anchor(edited, selectors);
    if (result.status === 'detached') throw new Error('detached');
    expect(result.start).toBe(selectors.position.start + 6);
  });

  test('CJK: an edited sentence is matched fuzzily', () => {
    const selectors = highlight(CJK, '彼は東京に住んでいます。');
    const edited = CJK.replace('彼は東京に住んでいます', '彼は東京にずっと住んでいます');
    const result = anchor(edited, selectors);
    expect(result.status).toBe('fuzzy');
    expect(placed(edited, result)).toBe('彼は東京にずっと住んでいます。');
  });

  test('emoji and combining marks: a fuzzy match keeps whole emoji, flags and accents', () => {
    const text = 'Start 👍🏽 good e\u0301te\u0301 summer café 🇯🇵 flags and 👩‍💻 coders here.';
    const selectors = highlight(text, '👍🏽 good e\u0301te\u0301 summer café 🇯🇵');
    const edited = text.replace('summer', 'sunny summer').replace('Start', 'Beginning');
    expect(placed(edited, anchor(edited, selectors))).toBe('👍🏽 good e\u0301te\u0301 sunny summer café 🇯🇵');
  });

  test('a fuzzy end that would split a combining sequence is moved past it', () => {
    const text = 'We met at the cafe near the station and talked for hours.';
    const selectors = highlight(text, 'met at the cafe');
    const edited = text.replace('met at the cafe', 'met at thee cafe\u0301');
    const result = anchor(edited, selectors);
    expect(result.status).toBe('fuzzy');
    expect(placed(edited, result)).toBe('met at thee cafe\u0301');
  });

  test('a fuzzy start never lands inside a surrogate pair', () => {
    const text = 'Intro 😀😀 smile and grin here, then the rest of the sentence.';
    const selectors = highlight(text, '😀 smile and grin');
    const edited = text.replace('smile and grin', 'smile & grin');
    const result = anchor(edited, selectors);
    const found = placed(edited, result);
    expect(found.startsWith('😀')).toBe(true);
    expect(found.endsWith('grin')).toBe(true);
  });

  test('an exact quote is not matched inside a combining sequence', () => {
    const text = 'one cafe\u0301 two cafe three';
    const selectors = highlight(text, 'cafe', 1);
    const edited = text.replace(' cafe three', ' coffee three');
    const result = anchor(edited, selectors);
    if (result.status !== 'detached') {
      expect(edited.slice(result.end, result.end + 1)).not.toBe('\u0301');
    }
  });
});

describe('anchorAll', () => {
  test('overlapping and nested highlights each move with their own text, results in order', () => {
    const ranges = [
      highlight(ARTICLE, 'A highlight is stored with its quote'),
      highlight(ARTICLE, 'stored with its quote and its position'),
      highlight(ARTICLE, 'its quote'),
      highlight(ARTICLE, 'moves with its text'),
      highlight(ARTICLE, 'Nothing is ever dropped'),
    ];
    const edited = `Preface.\n\n${ARTICLE.replace('Nothing is ever dropped; a', 'Every')}`;
    const results = anchorAll(edited, ranges);
    expect(results.map((result) => result.status)).toEqual([
      'exact-quote',
      'exact-quote',
      'exact-quote',
      'exact-quote',
      'detached',
    ]);
    expect(results.slice(0, 4).map((result) => placed(edited, result))).toEqual([
      'A highlight is stored with its quote',
      'stored with its quote and its position',
      'its quote',
      'moves with its text',
    ]);
  });

  test('takes highlights in reading order whatever order they come in, results in input order', () => {
    const phrases = ['Margin keeps', 'moves with its text', 'the same phrase', 'shown as detached'];
    const ranges = phrases.map((phrase) => highlight(ARTICLE, phrase)).reverse();
    const edited = `A new first paragraph.\n\n${ARTICLE}`;
    const results = anchorAll(edited, ranges);
    expect(results.map((result) => placed(edited, result))).toEqual([...phrases].reverse());
    expect(results.every((result) => result.status === 'exact-quote')).toBe(true);
  });

  test('gives the same answers as anchor one by one', () => {
    const ranges = ['Margin keeps', 'the same phrase', 'detached'].map((phrase) =>
      highlight(ARTICLE, phrase),
    );
    const edited = ARTICLE.replace('keeps', 'stores').replace('phrase can', 'phrase may');
    expect(anchorAll(edited, ranges)).toEqual(ranges.map((selectors) => anchor(edited, selectors)));
  });
});

describe('never put somewhere else', () => {
  const filler = (words: string[], count: number, seed: number) =>
    Array.from({ length: count }, (_, i) => words[(i * 7 + seed) % words.length]).join(' ');
  const WORDS = 'river stone window evening garden letter quiet morning paper lamp bridge story'.split(' ');

  test('a short quote that was edited is not moved to another copy of its old text', () => {
    const text = `${filler(WORDS, 40, 1)} the cat sat on the mat today. ${filler(WORDS, 40, 5)} Later the cat sat again.`;
    const selectors = highlight(text, 'cat');
    const typo = text.replace('the cat sat on the mat', 'the cot sat on the mat');
    expect(placed(typo, anchor(typo, selectors))).toBe('cot');
    const deleted = text.replace('the cat sat on the mat', 'the sat on the mat');
    expect(anchor(deleted, selectors).status).toBe('detached');
  });

  test('a deleted quote is reported lost even when its words occur elsewhere with part of its context', () => {
    const text = `${filler(WORDS, 30, 2)}. We walked along the old river path at dawn. ${filler(WORDS, 30, 3)}. Along the old river path at noon.`;
    const selectors = highlight(text, 'old river path');
    const edited = text.replace('along the old river path at dawn', 'along at dawn');
    expect(anchor(edited, selectors).status).toBe('detached');
  });

  test('a near-perfect match where the highlight was beats an exact copy elsewhere with half its context', () => {
    const text = `${filler(WORDS, 30, 4)}. Notes: the committee approved the budget for next year. ${filler(WORDS, 50, 6)}. Then the committee approved the budget quickly.`;
    const selectors = highlight(text, 'the committee approved the budget');
    const edited = text.replace(
      'Notes: the committee approved the budget',
      'Notes: the committee approved teh budget',
    );
    expect(placed(edited, anchor(edited, selectors))).toBe('the committee approved teh budget');
  });

  test('a long fuzzy match on text that merely shares a phrase far away is not taken', () => {
    const text = `${filler(WORDS, 20, 7)}. The annual report was published on Monday morning. ${filler(WORDS, 200, 8)}. Critics said the annual report was published too late.`;
    const selectors = highlight(text, 'The annual report was published on Monday');
    const edited = text.replace('The annual report was published on Monday morning. ', '');
    expect(anchor(edited, selectors).status).toBe('detached');
  });

  test('text repeated word for word: after a shift one highlight alone is lost, not put on the nearest copy; its neighbours place it', () => {
    const block =
      'This sentence is repeated word for word in every section of the page, long enough that the text around a highlight in its middle repeats too.';
    const sections = [1, 2, 3, 4].map((n) => `Section ${n}, ${filler(WORDS, 25, n)}.\n\n${block}`);
    const text = sections.join('\n\n');
    const blockStart = text.indexOf(block, text.indexOf('Section 3'));
    const repeated = describeRange(text, blockStart + 60, blockStart + 68);
    const neighbour = highlight(text, 'Section 3');
    const edited = `${'A long header line. '.repeat(20)}\n\n${text}`;
    const shift = edited.length - text.length;
    expect(anchor(edited, repeated).status).toBe('detached');
    const [placedNeighbour, placedRepeated] = anchorAll(edited, [neighbour, repeated]);
    expect(placedNeighbour).toMatchObject({ start: neighbour.position.start + shift });
    expect(placedRepeated).toMatchObject({ start: repeated.position.start + shift, status: 'exact-quote' });
  });
});
