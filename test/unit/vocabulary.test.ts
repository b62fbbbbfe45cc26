import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

// The glossary (docs/ARCHITECTURE.md, "Words"): a note is what a user keeps (a clipped web page
// or a daily note), a highlight a passage of it, a clip fetching and parsing a note's page. The
// words this code used before (a "page" entity, a "library" router or REST module for folders
// and tags, a highlight called "note") must not come back. "Page" still means a web page or a screen (HomePage, Playwright's page); those stay.
const OLD_VOCABULARY: [what: string, pattern: RegExp][] = [
  [
    'the page entity and its shapes',
    /\b(PageContent|PageSummary|PageDetail|PageSchema|zPage\w*)\b|<Page>|\(Page,/,
  ],
  ['page ids and fields', /\bpage(Id|Ids|_id|Count|_count|Title|_title|Highlights|Notes)\b/],
  [
    'page procedures and services',
    /\b(savePage|listPages|byPage|getPage|exportPage|clipPage|trashPages|restorePages|indexPage\w*)\b/,
  ],
  [
    'the page and library modules',
    /domain\/pages|features\/library|library\.(service|router|bench)|library-query|libraryRouter|operations\/library|libraryOperations/,
  ],
  ['the library router', /\b(trpc|caller|client)\.library\b|'library\.\w+/],
  ['library names', /\b(use)?Library[A-Z]\w*/],
  ['the page tables', /\b(from|join|into|update|table) "?page"?[\s`'"]|\bpage_content\b|\bnotes_vector\b/],
  ['a highlight called a note', /\b(NotesPanel|NoteLinkResolver|newNoteId|indexNote\w*Notes)\b|nx=\{note/],
];

const ROOTS = ['server', 'src', 'jobs', 'client', 'test'];
// Migrations rename the old words on purpose; the upgrade test writes rows in the old shape.
// The Logseq plugin's tests speak Logseq's own API, whose pages are pages (`Editor.getPage`).
const SKIPPED = new Set([
  'test/api/migrations.test.ts',
  'test/unit/vocabulary.test.ts',
  'test/plugins/fake-logseq.ts',
  'test/plugins/sync.test.ts',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(ts|tsx|css)$/.test(entry.name) ? [file] : [];
  });
}

test('the old vocabulary appears nowhere outside the migrations that renamed it', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const found: string[] = [];
  for (const file of ROOTS.flatMap((r) => sourceFiles(path.join(root, r)))) {
    const relative = path.relative(root, file);
    if (SKIPPED.has(relative)) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const [what, pattern] of OLD_VOCABULARY) {
          if (pattern.test(line)) found.push(`${relative}:${i + 1} (${what}): ${line.trim()}`);
        }
      });
  }
  expect(found).toEqual([]);
});
