// Re-anchoring after a one-character typo inside the quote (issue 35): cases, correct (placed and
// true range overlap by ≥ 90 % of each), silently misplaced (any other placement) and orphaned, by
// the typo's position, the quote's length, the kind of typo and the script.
// Run: npm run bench:anchoring-typos -- [--cases 6000] [--pages both|generated|articles] [--seed 1]
//        [--show POSITION|LENGTH|KIND|SCRIPT|all[:VERDICT]]  (prints the cases with that verdict, default misplaced)
// `articles` uses the real article texts in test/corpus/extraction-dev/ground-truth.json.
import { parseArgs } from 'node:util';
import { articleTexts, randomPage } from '../helpers/anchoring-edits.ts';
import {
  emptyTallies,
  formatTypoTallies,
  mergeTypoTallies,
  type TypoTallies,
  tallyTypos,
} from '../helpers/anchoring-typos.ts';
import { prng } from '../helpers/prng.ts';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '6000' },
    pages: { type: 'string', default: 'both' },
    seed: { type: 'string', default: '1' },
    show: { type: 'string' },
  },
});
const cases = Number(values.cases);
const sources = values.pages === 'both' ? ['generated', 'articles'] : [values.pages!];
const [showKey, showVerdict = 'misplaced'] = (values.show ?? '').split(':');

const SCRIPTS = ['latin', 'cjk', 'mixed'] as const;
const overall = emptyTallies();
for (const source of sources) {
  const random = prng(Number(values.seed));
  const articles = source === 'articles' ? articleTexts() : [];
  const pageAt = (index: number): string =>
    source === 'articles' ? articles[index % articles.length]! : randomPage(random, SCRIPTS[index % 3]!);
  const tallies: TypoTallies = tallyTypos(cases, random, pageAt, (testCase, result, outcome) => {
    if (!showKey || outcome !== showVerdict) return;
    const { kind, position, length, script } = testCase;
    if (showKey !== 'all' && ![kind, position, length, script].includes(showKey as never)) return;
    const { truth, edited, selectors } = testCase;
    console.log(JSON.stringify({ kind, position, length, quote: selectors.quote, truth, result }));
    console.log(
      '  truth:',
      JSON.stringify(edited.slice(truth.start - 10, truth.end + 10)),
      JSON.stringify(edited.slice(truth.start, truth.end)),
    );
    if (result.status !== 'detached')
      console.log('  placed:', JSON.stringify(edited.slice(result.start, result.end)));
  });
  console.log(`\n## ${source} pages: ${cases} cases, seed ${values.seed}\n`);
  console.log(formatTypoTallies(tallies));
  mergeTypoTallies(overall, tallies);
}
if (sources.length > 1) {
  console.log(`\n## all pages: ${overall.all.cases} cases\n`);
  console.log(formatTypoTallies(overall));
}
