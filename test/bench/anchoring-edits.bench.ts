// Re-anchoring after typical edits: per edit kind, how many highlights land correctly, land
// somewhere else (wrong) or are reported lost (orphaned), and the time per `anchor` call.
// Run: npm run bench:anchoring-edits -- [--cases 1500] [--pages generated|articles] [--seed 1]
//        [--length 20000] (generated pages of about that many code units)
// `articles` uses the real article texts in test/corpus/extraction-dev/ground-truth.json.
import { parseArgs } from 'node:util';
import {
  articleTexts,
  EDIT_KINDS,
  formatTallies,
  type KindTally,
  randomPage,
  tallyEditKind,
} from '../helpers/anchoring-edits.ts';
import { prng } from '../helpers/prng.ts';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '1500' },
    pages: { type: 'string', default: 'generated' },
    seed: { type: 'string', default: '1' },
    length: { type: 'string' },
    show: { type: 'string' },
  },
});
const casesPerKind = Number(values.cases);
const random = prng(Number(values.seed));

const articles = values.pages === 'articles' ? articleTexts() : [];
const nextPage = (index: number): string =>
  articles.length > 0
    ? articles[index % articles.length]!
    : randomPage(
        random,
        (['latin', 'cjk', 'mixed'] as const)[index % 3]!,
        values.length ? Number(values.length) : undefined,
      );

// --show <kind>[:<verdict>] prints the cases of one kind with that verdict (default: wrong).
const [showKind, showVerdict = 'wrong'] = (values.show ?? '').split(':');
const tallies: KindTally[] = EDIT_KINDS.map((kind) =>
  tallyEditKind(kind, casesPerKind, random, nextPage, (testCase, result, outcome) => {
    if (kind !== showKind || outcome !== showVerdict) return;
    console.log(JSON.stringify({ ...testCase.selectors, truth: testCase.truth, result }));
    const { truth, edited } = testCase;
    if (truth) console.log('  truth text:', JSON.stringify(edited.slice(truth.start, truth.end)));
    if (result.status !== 'detached') {
      console.log('  placed on: ', JSON.stringify(edited.slice(result.start - 20, result.end + 20)));
    }
  }),
);

const total = tallies.reduce((sum, t) => ({ cases: sum.cases + t.cases, wrong: sum.wrong + t.wrong }), {
  cases: 0,
  wrong: 0,
});
console.log(
  `pages: ${values.pages}${values.length ? ` of ~${values.length} code units` : ''}, ${casesPerKind} highlights per edit kind, seed ${values.seed}\n`,
);
console.log(formatTallies(tallies));
console.log(`\nwrong overall: ${((100 * total.wrong) / total.cases).toFixed(2)}%`);
