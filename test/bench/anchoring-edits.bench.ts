// Re-anchoring after typical edits: per edit kind, how many highlights land correctly, land
// somewhere else (wrong) or are reported lost (orphaned), and the time per `anchor` call.
// Run: npm run bench:anchoring-edits -- [--cases 1500] [--pages generated|articles] [--seed 1]
//        [--length 20000] (generated pages of about that many code units)
// `articles` uses the real article texts in ../shared/data/extraction-dev/ground-truth.json.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { anchor } from '../../src/anchoring/index.ts';
import {
  EDIT_KINDS,
  editCase,
  formatTallies,
  type KindTally,
  randomHighlight,
  randomPage,
  record,
  seededRandom,
  tallyFor,
} from '../helpers/anchoring-edits.ts';

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
const random = seededRandom(Number(values.seed));

function articleTexts(): string[] {
  const file = new URL('../../../shared/data/extraction-dev/ground-truth.json', import.meta.url);
  const articles = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { articleBody?: string }>;
  return Object.values(articles)
    .map((article) => article.articleBody ?? '')
    .filter((body) => body.length >= 1_000);
}

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
const tallies: KindTally[] = [];
for (const kind of EDIT_KINDS) {
  const tally = tallyFor(kind);
  for (let i = 0; i < casesPerKind; i++) {
    const page = nextPage(i);
    const testCase = editCase(kind, page, randomHighlight(random, page), random);
    const started = performance.now();
    const result = anchor(testCase.edited, testCase.selectors);
    const outcome = record(tally, testCase, result, performance.now() - started);
    if (kind === showKind && outcome === showVerdict) {
      console.log(JSON.stringify({ ...testCase.selectors, truth: testCase.truth, result }));
      if (testCase.truth)
        console.log(
          '  truth text:',
          JSON.stringify(testCase.edited.slice(testCase.truth.start, testCase.truth.end)),
        );
      if (result.status !== 'detached')
        console.log(
          '  placed on: ',
          JSON.stringify(testCase.edited.slice(result.start - 20, result.end + 20)),
        );
    }
  }
  tallies.push(tally);
}

const total = tallies.reduce((sum, t) => ({ cases: sum.cases + t.cases, wrong: sum.wrong + t.wrong }), {
  cases: 0,
  wrong: 0,
});
console.log(
  `pages: ${values.pages}${values.length ? ` of ~${values.length} code units` : ''}, ${casesPerKind} highlights per edit kind, seed ${values.seed}\n`,
);
console.log(formatTallies(tallies));
console.log(`\nwrong overall: ${((100 * total.wrong) / total.cases).toFixed(2)}%`);
