import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
beforeAll(async () => {
  deps = await createTestDeps();
});
afterAll(() => deps.close());

/** One text per name; each name's text contains its term and no word another query would find. */
const TEXTS: Record<string, string> = {
  cpp: 'Templates in C++, explained.',
  cat: 'A cat sat on the mat.',
  code: 'Reading code aloud.',
  csharp: 'LINQ queries (C#)',
  dotnet: 'Deploying .NET apps',
  node: 'Streams in "node.js"',
  fsharp: 'Types in F#.',
};

/** Each query and the names it must find, exactly. */
const EXPECTED: [string, string[]][] = [
  ['C++', ['cpp']],
  ['c++', ['cpp']],
  ['cat', ['cat']],
  ['code', ['code']],
  ['C#', ['csharp']],
  ['.NET', ['dotnet']],
  ['node.js', ['node']],
  ['Node.JS', ['node']],
  ['F#', ['fsharp']],
  // Plain words still match by prefix, and find the plain parts of symbol terms.
  ['c', ['cat', 'code', 'cpp', 'csharp']],
  ['net', ['dotnet']],
  ['js', ['node']],
  ['templ', ['cpp']],
];

/** What a user might paste or mistype: tsquery syntax, quotes, backslashes. None may fail. */
const HOSTILE = ['a:* | b', "'", "''", '\\', "\\'", '!(<->)', 'c++:*&|', "x' | 'y", ':*', '<2>', "it's"];

describe('search: terms with symbols match whole (C++ is not c:*)', () => {
  test('the note list search finds exactly the notes containing each term', async () => {
    const { caller, user } = await signedInUser(deps);
    // Titles no query matches, so only the text decides.
    const byTitle = new Map<string, string>();
    for (const [i, [name, text]] of Object.entries(TEXTS).entries()) {
      await makeClippedNote(deps, user.id, { title: `Item ${i}`, text });
      byTitle.set(`Item ${i}`, name);
    }
    const q = async (query: string) =>
      (await caller.notes.list({ nav: 'all', q: query })).items.map((p) => byTitle.get(p.title)).sort();
    for (const [query, names] of EXPECTED)
      expect({ query, found: await q(query) }).toEqual({ query, found: names });
  });

  test('the note list search matches terms in highlights and annotations too', async () => {
    const { caller, user } = await signedInUser(deps);
    const note = await makeClippedNote(deps, user.id, { title: 'Plain', text: 'Nothing technical.' });
    await makeClippedNote(deps, user.id, { title: 'Other', text: 'Cats and code.' });
    const highlight = await caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.textNote,
      text: 'Try this in F#',
    });
    await caller.highlights.update({ id: highlight.id, annotation: 'Port it to C++.' });
    const q = async (query: string) =>
      (await caller.notes.list({ nav: 'all', q: query })).items.map((p) => p.title);
    expect(await q('F#')).toEqual(['Plain']);
    expect(await q('C++')).toEqual(['Plain']);
    expect(await q('C#')).toEqual([]);
  });

  test('highlight search finds exactly the highlights containing each term', async () => {
    const { caller, user } = await signedInUser(deps);
    const note = await makeClippedNote(deps, user.id, { title: 'Host', text: 'Host note.' });
    const byText = new Map<string, string>();
    for (const [name, text] of Object.entries(TEXTS)) {
      await caller.highlights.create({ id: newId(), noteId: note.id, coreType: CoreType.textNote, text });
      byText.set(text, name);
    }
    const q = async (query: string) =>
      (await caller.highlights.list({ limit: 50, q: query })).items.map((h) => byText.get(h.text)).sort();
    for (const [query, names] of EXPECTED)
      expect({ query, found: await q(query) }).toEqual({ query, found: names });
  });

  test('daily search finds exactly the days whose highlights contain each term', async () => {
    const { caller } = await signedInUser(deps);
    const byDate = new Map<string, string>();
    let day = 1;
    for (const [name, text] of Object.entries(TEXTS)) {
      const date = `2026-01-0${day++}`;
      await caller.daily.save({ date, text, baseText: '', baseVersion: 0 });
      byDate.set(date, name);
    }
    const q = async (query: string) =>
      (await caller.daily.list({ limit: 50, q: query })).items.map((d) => byDate.get(d.date)).sort();
    for (const [query, names] of EXPECTED)
      expect({ query, found: await q(query) }).toEqual({ query, found: names });
  });

  test('tsquery syntax typed into any search box is text: no error, no operator', async () => {
    const { caller, user } = await signedInUser(deps);
    const note = await makeClippedNote(deps, user.id, { title: 'Quotes', text: "It's a b test" });
    await caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.textNote,
      text: 'a b',
    });
    await caller.daily.save({ date: '2026-02-01', text: 'a b', baseText: '', baseVersion: 0 });
    for (const query of HOSTILE) {
      await expect(caller.notes.list({ nav: 'all', q: query })).resolves.toBeDefined();
      await expect(caller.highlights.list({ limit: 50, q: query })).resolves.toBeDefined();
      await expect(caller.daily.list({ limit: 50, q: query })).resolves.toBeDefined();
    }
    // `a:* | b` is the two words a and b, both required, not "a-anything or b".
    expect((await caller.notes.list({ nav: 'all', q: 'a:* | b' })).items.map((p) => p.title)).toEqual([
      'Quotes',
    ]);
    expect((await caller.notes.list({ nav: 'all', q: 'a:* | zzz' })).items).toEqual([]);
    expect((await caller.notes.list({ nav: 'all', q: "it's" })).items.map((p) => p.title)).toEqual([
      'Quotes',
    ]);
  });
});
