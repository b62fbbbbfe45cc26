import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { Note } from '../../server/db/entities/index.ts';
import { describeRange } from '../../src/anchoring/index.ts';
import { ClipStatus, CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { article } from '../helpers/site.ts';
import { signedInUser } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';

let deps: TestDeps;
let workers: RunningWorkers;
const PARAGRAPHS = [
  'The quiet reader underlines a sentence about patience and returns to it a week later.',
  'Repeated phrases appear twice: the river bends. Later the text says again: the river bends.',
  'Mathematics hides in margins, where a highlight like $a^2+b^2=c^2$ waits for the next reader.',
];

beforeAll(async () => {
  deps = await createTestDeps();
  workers = await startWorkers(deps);
});
afterAll(async () => {
  await workers.close();
  await deps.close();
});

async function clippedNote(
  caller: Awaited<ReturnType<typeof signedInUser>>['caller'],
  html = article('Margins', PARAGRAPHS),
) {
  const { note } = await caller.notes.clipHtml({ url: `https://reader.example/${newId()}`, html });
  return waitFor(async () => {
    const detail = await caller.notes.get({ id: note.id });
    return detail.clipStatus === ClipStatus.done ? detail : undefined;
  });
}

function selectorsFor(text: string, phrase: string, occurrence = 0) {
  let start = -1;
  for (let i = 0; i <= occurrence; i++) start = text.indexOf(phrase, start + 1);
  return describeRange(text, start, start + phrase.length);
}

describe('highlights', () => {
  test('create with a client id; repeating it is harmless; the count moves once', async () => {
    const { caller } = await signedInUser(deps);
    const note = await clippedNote(caller);
    const id = newId();
    const input = {
      id,
      noteId: note.id,
      coreType: CoreType.highlight,
      selectors: selectorsFor(note.text, 'underlines a sentence about patience'),
      slotId: 3,
      style: 2,
    } as const;
    const created = await caller.highlights.create(input);
    expect(created).toMatchObject({
      id,
      text: 'underlines a sentence about patience',
      slotId: 3,
      style: 2,
      detached: false,
    });
    await expect(caller.highlights.create(input)).resolves.toMatchObject({ id });
    expect((await caller.notes.get({ id: note.id })).highlightCount).toBe(1);
  });

  test('the right occurrence of a repeated phrase keeps its place', async () => {
    const { caller } = await signedInUser(deps);
    const note = await clippedNote(caller);
    const second = await caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.highlight,
      selectors: selectorsFor(note.text, 'the river bends', 1),
    });
    expect(second.positionStart).toBe(note.text.lastIndexOf('the river bends'));
  });

  test('annotations: Markdown with math; invalid math is refused with KaTeX’s reason and nothing changes', async () => {
    const { caller } = await signedInUser(deps);
    const note = await clippedNote(caller);
    const h = await caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.highlight,
      selectors: selectorsFor(note.text, 'Mathematics hides in margins'),
    });
    const annotated = await caller.highlights.update({ id: h.id, annotation: 'Pythagoras: $a^2+b^2=c^2$' });
    expect(annotated.annotation).toMatchObject({ message: 'Pythagoras: $a^2+b^2=c^2$' });
    const annotationId = annotated.annotation?.id;
    await expect(caller.highlights.update({ id: h.id, annotation: 'broken $x^1^2$' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'errors.mathDoubleSuperscript',
    });
    const [after] = await caller.highlights.byNote({ id: note.id });
    expect(after?.annotation).toMatchObject({ id: annotationId, message: 'Pythagoras: $a^2+b^2=c^2$' });
    await expect(caller.highlights.update({ id: h.id, annotation: null })).resolves.toMatchObject({
      annotation: null,
    });
  });

  test('text highlights (core type 6) follow the link rule; image highlights keep their image URL', async () => {
    const { caller } = await signedInUser(deps);
    const note = await clippedNote(caller);
    const short = await caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.textNote,
      text: 'too short',
    });
    const long = await caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.textNote,
      text: 'a note highlight longer than fifteen characters',
    });
    expect([short.hasLink, long.hasLink]).toEqual([false, true]);
    const image = await caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.image,
      imageUrl: 'https://reader.example/figure.png',
    });
    expect(image.imageUrl).toBe('https://reader.example/figure.png');
    expect((await caller.notes.get({ id: note.id })).highlightCount).toBe(1);
  });

  test('the highlight count stays right under concurrent creates and deletes', async () => {
    const { caller } = await signedInUser(deps);
    const note = await clippedNote(caller);
    const selectors = selectorsFor(note.text, 'quiet reader');
    const ids = Array.from({ length: 40 }, () => newId());
    await Promise.all(
      ids.map((id) =>
        caller.highlights.create({ id, noteId: note.id, coreType: CoreType.highlight, selectors }),
      ),
    );
    await Promise.all([
      ...ids.slice(0, 15).map((id) => caller.highlights.delete({ id })),
      ...ids.slice(0, 15).map((id) => caller.highlights.delete({ id }).catch(() => undefined)),
      ...ids
        .slice(20)
        .map((id) =>
          caller.highlights.create({ id, noteId: note.id, coreType: CoreType.highlight, selectors }),
        ),
    ]);
    const rows = await caller.highlights.byNote({ id: note.id });
    expect(rows).toHaveLength(25);
    expect((await deps.orm.em.fork().findOneOrFail(Note, { id: note.id })).highlightCount).toBe(25);
  });

  test('the list across notes is newest first and filters by colour, tag and note', async () => {
    const { caller } = await signedInUser(deps);
    const a = await clippedNote(caller);
    const b = await clippedNote(caller);
    const make = (noteId: string, text: string, phrase: string, slotId: number, tags: string[]) =>
      caller.highlights.create({
        id: newId(),
        noteId,
        coreType: CoreType.highlight,
        selectors: selectorsFor(text, phrase),
        slotId,
        tags,
      });
    await make(a.id, a.text, 'quiet reader', 1, ['patience']);
    await make(a.id, a.text, 'river bends', 2, []);
    await make(b.id, b.text, 'Mathematics', 2, ['math', 'patience']);
    const all = await caller.highlights.list({ limit: 50 });
    expect(all.items.map((h) => h.text)).toEqual(['Mathematics', 'river bends', 'quiet reader']);
    expect(all.items[0]?.note).toMatchObject({ id: b.id, title: 'Margins' });
    expect((await caller.highlights.list({ limit: 50, slotId: 2 })).items).toHaveLength(2);
    expect((await caller.highlights.list({ limit: 50, tag: 'patience' })).items.map((h) => h.text)).toEqual([
      'Mathematics',
      'quiet reader',
    ]);
    expect((await caller.highlights.list({ limit: 50, noteId: a.id })).items).toHaveLength(2);
    const first = await caller.highlights.list({ limit: 2 });
    const rest = await caller.highlights.list({ limit: 2, cursor: first.nextCursor });
    expect([...first.items, ...rest.items].map((h) => h.text)).toEqual(all.items.map((h) => h.text));
  });

  test('keyword search over highlight text and annotations, CJK-exact', async () => {
    const { caller } = await signedInUser(deps);
    const note = await clippedNote(caller);
    const highlight = (text: string) =>
      caller.highlights.create({ id: newId(), noteId: note.id, coreType: CoreType.textNote, text });
    await highlight('默认设置的用户界面');
    await highlight('默想之后写下的笔记');
    const annotated = await highlight('plain words only here');
    await caller.highlights.update({ id: annotated.id, annotation: 'serendipity found' });
    const q = async (query: string) =>
      (await caller.highlights.list({ limit: 50, q: query })).items.map((h) => h.text);
    expect(await q('默想')).toEqual(['默想之后写下的笔记']);
    expect(await q('用户界面')).toEqual(['默认设置的用户界面']);
    expect(await q('serendip')).toEqual(['plain words only here']);
  });

  test('CJK runs of three or more characters match as a phrase: never their bigrams scattered, half-width forms too, and past the positions limit', async () => {
    const { caller } = await signedInUser(deps);
    const note = await clippedNote(caller);
    const highlight = (text: string) =>
      caller.highlights.create({ id: newId(), noteId: note.id, coreType: CoreType.textNote, text });
    await highlight('提升用户体验的方法');
    // Every bigram of 用户体验, none in its order.
    await highlight('体验用户户体的练习');
    // Half-width katakana: the same text as データベース once normalised (NFKC), as the index stores it.
    await highlight('ﾃﾞｰﾀﾍﾞｰｽ設計入門');
    // More CJK characters than a tsvector has positions for (16,383): matched by its bigrams, then
    // confirmed in the text.
    const filler = Array.from({ length: 16_400 }, (_, i) => String.fromCodePoint(0x4e00 + (i % 97))).join('');
    const long = await highlight(`${filler}，长文末尾的用户画像。`);
    const q = async (query: string) =>
      (await caller.highlights.list({ limit: 50, q: query })).items.map((h) =>
        h.id === long.id ? 'long' : h.text,
      );
    expect(await q('用户体验')).toEqual(['提升用户体验的方法']);
    expect(await q('户体验')).toEqual(['提升用户体验的方法']);
    expect(await q('用户体')).toEqual(['提升用户体验的方法']);
    expect(await q('用户')).toEqual(['long', '体验用户户体的练习', '提升用户体验的方法']);
    expect(await q('データベース')).toEqual(['ﾃﾞｰﾀﾍﾞｰｽ設計入門']);
    expect(await q('用户画像')).toEqual(['long']);
    expect(await q('画像用户')).toEqual([]);
    expect(await q('用户画像 用户体验')).toEqual([]);
  });

  test('re-parsing moves highlights with their text; one whose text is gone is kept as detached', async () => {
    const { caller } = await signedInUser(deps);
    const url = `https://reader.example/${newId()}`;
    const { note } = await caller.notes.clipHtml({ url, html: article('Margins', PARAGRAPHS) });
    const first = await waitFor(async () => {
      const d = await caller.notes.get({ id: note.id });
      return d.clipStatus === ClipStatus.done ? d : undefined;
    });
    const moving = await caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.highlight,
      selectors: selectorsFor(first.text, 'returns to it a week later'),
    });
    const doomed = await caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.highlight,
      selectors: selectorsFor(first.text, 'Mathematics hides in margins'),
    });
    const edited = [
      `A new opening paragraph was added by the editor, pushing everything down by a good margin.`,
      PARAGRAPHS[0] as string,
      PARAGRAPHS[1] as string,
    ];
    await caller.notes.clipHtml({ url, html: article('Margins', edited) });
    const second = await waitFor(async () => {
      const d = await caller.notes.get({ id: note.id });
      return d.clipStatus === ClipStatus.done && d.text.startsWith('A new opening') ? d : undefined;
    });
    const after = await caller.highlights.byNote({ id: note.id });
    const moved = after.find((h) => h.id === moving.id);
    expect(moved?.detached).toBe(false);
    expect(
      second.text.slice(
        moved?.positionStart ?? 0,
        (moved?.positionStart ?? 0) + 'returns to it a week later'.length,
      ),
    ).toBe('returns to it a week later');
    expect(after.find((h) => h.id === doomed.id)).toMatchObject({
      detached: true,
      text: 'Mathematics hides in margins',
    });
    // Lost highlights still travel: exports carry them with their annotation.
    await caller.highlights.update({ id: doomed.id, annotation: 'Still mine.' });
    const exported = await caller.highlights.export({ noteId: note.id, format: 'markdown' });
    expect(exported.content).toContain('> Mathematics hides in margins');
    expect(exported.content).toContain('Still mine.');
  });

  test('re-attach: a lost highlight is put on selected text, keeping colour, annotation and tags', async () => {
    const owner = await signedInUser(deps);
    const stranger = await signedInUser(deps);
    const note = await clippedNote(owner.caller);
    const lost = await owner.caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.highlight,
      selectors: describeRange('A passage the page no longer has, anywhere at all.', 2, 30),
      slotId: 4,
      tags: ['kept'],
      annotation: 'My note on it.',
    });
    expect(lost.detached).toBe(true);
    const selectors = selectorsFor(note.text, 'underlines a sentence about patience');
    const before = await owner.caller.highlights.byNote({ id: note.id });

    // Another user's highlight id, a selection the page does not have, a text note: refused, nothing changes.
    await expect(stranger.caller.highlights.reattach({ id: lost.id, selectors })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const elsewhere = describeRange('Words that are not in this page at all, none of them.', 0, 20);
    await expect(
      owner.caller.highlights.reattach({ id: lost.id, selectors: elsewhere }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'errors.selectionNotInPage',
    });
    const textNote = await owner.caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.textNote,
      text: 'A thought',
    });
    await expect(owner.caller.highlights.reattach({ id: textNote.id, selectors })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await owner.caller.highlights.byNote({ id: note.id })).toEqual([...before, textNote]);

    const attached = await owner.caller.highlights.reattach({ id: lost.id, selectors });
    expect(attached).toMatchObject({
      id: lost.id,
      detached: false,
      text: 'underlines a sentence about patience',
      positionStart: note.text.indexOf('underlines a sentence about patience'),
      slotId: 4,
      tags: ['kept'],
      annotation: { message: 'My note on it.' },
    });
    const found = await owner.caller.highlights.list({ q: 'patience', limit: 10 });
    expect(found.items.map((h) => h.id)).toContain(lost.id);
  });

  test('export as Markdown and text', async () => {
    const { caller } = await signedInUser(deps);
    const note = await clippedNote(caller);
    const h = await caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.highlight,
      selectors: selectorsFor(note.text, 'quiet reader'),
      tags: ['calm'],
    });
    await caller.highlights.update({ id: h.id, annotation: 'So true.' });
    const md = await caller.highlights.export({ noteId: note.id, format: 'markdown' });
    expect(md.content).toContain('# Margins');
    expect(md.content).toContain('> quiet reader');
    expect(md.content).toContain('So true.');
    expect(md.content).toContain('#calm');
    const text = await caller.highlights.export({ noteId: note.id, format: 'text' });
    expect(text.content).toContain('quiet reader\n  — So true.');
  });

  test("another user's ids are refused on every procedure and nothing changes", async () => {
    const owner = await signedInUser(deps);
    const other = await signedInUser(deps);
    const note = await clippedNote(owner.caller);
    const h = await owner.caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.highlight,
      selectors: selectorsFor(note.text, 'quiet reader'),
    });
    await expect(
      other.caller.highlights.create({
        id: newId(),
        noteId: note.id,
        coreType: CoreType.textNote,
        text: 'sneaky highlight on your page',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      other.caller.highlights.create({
        id: h.id,
        noteId: note.id,
        coreType: CoreType.textNote,
        text: 'reuse your id please',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(other.caller.highlights.update({ id: h.id, slotId: 6 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(other.caller.highlights.delete({ id: h.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(other.caller.highlights.byNote({ id: note.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(other.caller.highlights.export({ noteId: note.id, format: 'text' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(other.caller.highlights.list({ limit: 50, noteId: note.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const [still] = await owner.caller.highlights.byNote({ id: note.id });
    expect(still).toMatchObject({ id: h.id, slotId: 1 });
    // Ids are per owner: someone else's id is free for the newcomer and touches nothing of the owner's.
    const mine = await clippedNote(other.caller);
    const theirs = await other.caller.highlights.create({
      id: h.id,
      noteId: mine.id,
      coreType: CoreType.textNote,
      text: 'reuse your id please',
    });
    expect(theirs).toMatchObject({ id: h.id, noteId: mine.id, text: 'reuse your id please' });
    expect(await owner.caller.highlights.byNote({ id: note.id })).toEqual([still]);
    expect(await owner.caller.highlights.locate({ id: h.id })).toEqual({ noteId: note.id, dailyDate: null });
  });

  test('bad input is refused: unknown colour slot, style, empty text highlight, bad ids', async () => {
    const { caller } = await signedInUser(deps);
    const note = await clippedNote(caller);
    const base = {
      noteId: note.id,
      coreType: CoreType.highlight,
      selectors: selectorsFor(note.text, 'quiet reader'),
    } as const;
    await expect(caller.highlights.create({ ...base, id: newId(), slotId: 7 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(caller.highlights.create({ ...base, id: newId(), style: 9 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(caller.highlights.create({ ...base, id: 'bad id!' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(
      caller.highlights.create({
        id: newId(),
        noteId: note.id,
        coreType: CoreType.textNote,
        text: '   ',
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await caller.highlights.byNote({ id: note.id })).toEqual([]);
  });
});
