// The reader the guide's screenshots show: a handful of saved articles (parsed by the real clip
// worker), highlights with a note, tags, folders, states and three days of daily notes.
import { describeRange } from '../../src/anchoring/index.ts';
import { ClipStatus, CoreType, Flow } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import type { SignedInUser } from '../helpers/e2e.ts';
import { waitFor } from '../helpers/wait.ts';

interface Article {
  key: string;
  url: string;
  title: string;
  paragraphs: string[];
  tags: string[];
  folder?: string;
  flow?: Flow;
}

/** Oldest first: the list shows the newest on top. */
const ARTICLES: Article[] = [
  {
    key: 'tidepools',
    url: 'https://nature.example/tidepools-in-winter',
    title: 'How tidepools get through the winter',
    paragraphs: [
      'When storms arrive, the small animals of the rocky shore hold on. Anemones close up, snails seal their shells and crabs wedge themselves into cracks.',
      'The cold water carries more oxygen, and many species slow down until spring brings longer days and calmer seas.',
    ],
    tags: ['nature', 'science'],
    folder: 'Field notes',
  },
  {
    key: 'handwriting',
    url: 'https://learning.example/why-handwritten-notes-stick',
    title: 'Why handwritten notes stick',
    paragraphs: [
      'Writing by hand is slow, and that is its strength: you cannot copy everything, so you have to choose and rephrase.',
      'Choosing is thinking. The notes that stay with us are the ones we had to put into our own words.',
    ],
    tags: ['learning'],
    folder: 'Study',
    flow: Flow.later,
  },
  {
    key: 'cities',
    url: 'https://walks.example/walking-in-cities',
    title: 'Notes on walking in cities',
    paragraphs: [
      'A city reveals itself at walking pace. Shop signs, courtyards and old tram rails are invisible from a bus.',
      'Walk the same street every morning for a month and it becomes a different street.',
    ],
    tags: ['cities'],
    flow: Flow.archive,
  },
  {
    key: 'calm',
    url: 'https://design.example/calm-software',
    title: 'Designing calm software',
    paragraphs: [
      'Calm software asks for attention only when it matters. It stays quiet in the background and is there when you need it.',
      'Fewer badges, fewer pop-ups and clear places for everything make a tool that people trust.',
    ],
    tags: ['design'],
    flow: Flow.shortlist,
  },
  {
    key: 'marginalia',
    url: 'https://history.example/short-history-of-marginalia',
    title: 'A short history of marginalia',
    paragraphs: [
      'For centuries, readers wrote in the margins of their books: questions, corrections, small drawings and arguments with the author.',
      'Some of those notes are now more famous than the books they were written in.',
    ],
    tags: ['reading', 'history'],
    folder: 'Essays',
  },
  {
    key: 'slow',
    url: 'https://essays.example/the-art-of-slow-reading',
    title: 'The art of slow reading',
    paragraphs: [
      'Reading slowly is not about speed at all. It is about attention: staying with a sentence long enough for it to change how you think.',
      'Most of what we read online is skimmed. We collect links, tabs and bookmarks, and almost never come back to them. A reading habit needs a place where the good parts are kept.',
      'Highlighting is the simplest way to talk back to a text. A short note beside a passage turns something you agreed with into a thought of your own.',
      'Come back a week later and read only your highlights. What still matters after a week is what you keep, and it is usually far less than you saved.',
      'Slow reading also means reading fewer things. Choosing one long article over ten short posts is a small act of care for your own mind.',
    ],
    tags: ['reading'],
    folder: 'Essays',
  },
];

/** Passages highlighted in "The art of slow reading": colour slot, and a note on some. */
const HIGHLIGHTS: { phrase: string; slotId: number; annotation?: string }[] = [
  { phrase: 'It is about attention', slotId: 1, annotation: 'The whole point, in five words.' },
  { phrase: 'A reading habit needs a place where the good parts are kept.', slotId: 3 },
  {
    phrase: 'What still matters after a week is what you keep',
    slotId: 2,
    annotation: 'Try this on Sunday.',
  },
];

/** A phrase of the slow-reading article the capture selects to show the colour picker. */
export const PHRASE_TO_SELECT = 'the simplest way to talk back to a text';

const DAILY_NOTES: { date: string; text: string }[] = [
  {
    date: '2026-03-12',
    text: '- Finished *Designing calm software*\n- Idea: fewer notifications at work, one inbox',
  },
  {
    date: '2026-03-13',
    text: '## Walk\n\nTook the long way past the harbour. Tidepools full of anemones, closed tight against the wind.',
  },
  {
    date: '2026-03-14',
    text: "## Today\n\n- Read **The art of slow reading**\n- Highlight only what I would tell a friend\n\n> Reading slowly is not about speed at all.\n\nNext: send this week's highlights to Obsidian.",
  },
];

function articleHtml(article: Article): string {
  const body = article.paragraphs.map((p) => `<p>${p}</p>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${article.title}</title></head>
<body><article><h1>${article.title}</h1>${body}</article></body></html>`;
}

export interface GuideLibrary {
  /** The note ids by article key. */
  notes: Record<string, string>;
}

/** Fills `reader`'s account; articles are saved one by one so their order is the list's. */
export async function seedGuideLibrary(reader: SignedInUser): Promise<GuideLibrary> {
  const { caller } = reader;
  await caller.account.updateProfile({ nickname: 'Ada' });
  const folders = new Map<string, string>();
  for (const name of ['Essays', 'Field notes', 'Study']) {
    folders.set(name, (await caller.folders.create({ name })).id);
  }
  const notes: Record<string, string> = {};
  for (const article of ARTICLES) {
    const { note } = await caller.notes.clipHtml({ url: article.url, html: articleHtml(article) });
    await waitFor(
      async () =>
        (await caller.notes.get({ id: note.id })).clipStatus === ClipStatus.done ? true : undefined,
      30_000,
      `"${article.title}" to be parsed`,
    );
    for (const tag of article.tags) await caller.notes.addTag({ ids: [note.id], tag });
    const folderId = article.folder ? folders.get(article.folder) : undefined;
    if (folderId) await caller.notes.moveToFolder({ ids: [note.id], folderId });
    if (article.flow) await caller.notes.setFlow({ ids: [note.id], flow: article.flow });
    notes[article.key] = note.id;
  }
  const slowId = notes.slow as string;
  const { text } = await caller.notes.get({ id: slowId });
  for (const { phrase, ...fields } of HIGHLIGHTS) {
    const start = text.indexOf(phrase);
    if (start < 0) throw new Error(`"${phrase}" is not in the article`);
    await caller.highlights.create({
      id: newId(),
      noteId: slowId,
      coreType: CoreType.highlight,
      selectors: describeRange(text, start, start + phrase.length),
      ...fields,
    });
  }
  for (const day of DAILY_NOTES) {
    await caller.daily.save({ date: day.date, text: day.text, baseText: '', baseVersion: 0 });
  }
  return { notes };
}
