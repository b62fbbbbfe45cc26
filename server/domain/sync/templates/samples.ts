import { Flow } from '../../../../src/enums.ts';
import {
  type ExportHighlight,
  ExportHighlightType,
  type ExportRecord,
} from '../../../../src/schemas/sync.ts';

// What a template is trial-rendered against before it is saved: the shapes that break
// templates (CJK text, an image, math, tags with spaces, multi-line text, a daily note, a page
// with nothing highlighted), so an error shows up on the settings page, not during a sync.

const READER = 'https://margin.example/read';
const T0 = 1_773_531_000; // 2026-03-14T23:30:00Z

function highlight(noteId: string, id: string, fields: Partial<ExportHighlight>): ExportHighlight {
  return {
    id,
    type: ExportHighlightType.text,
    text: '',
    imageUrl: null,
    annotation: null,
    slot: 1,
    color: '#f6d365',
    tags: [],
    link: `${READER}/${noteId}#h=${id}`,
    createdAt: T0 + 60,
    updatedAt: T0 + 60,
    ...fields,
  };
}

const CJK_PAGE = 'SampleCjkPage01';
const ENGLISH_PAGE = 'SampleEnPage0001';
const DAILY = 'SampleDaily00001';

export const SAMPLE_RECORDS: readonly ExportRecord[] = [
  {
    id: CJK_PAGE,
    kind: 'page',
    title: '中文标题：阅读与思考 / 笔记',
    url: 'https://www.example.com.cn/articles/42?from=margin',
    readerUrl: `${READER}/${CJK_PAGE}`,
    siteName: '示例网站',
    author: '李明',
    tags: ['读书', 'reading list', '数学'],
    folder: '收件箱',
    flow: Flow.shortlist,
    content: '',
    createdAt: T0,
    updatedAt: T0 + 86_400,
    publishedAt: T0 - 86_400,
    highlights: [
      highlight(CJK_PAGE, 'SampleHl0000001', {
        text: '学而不思则罔，思而不学则殆。\n知之为知之，不知为不知，是知也。',
        annotation: '欧拉恒等式：$e^{i\\pi}+1=0$',
        tags: ['经典', 'to do'],
      }),
      highlight(CJK_PAGE, 'SampleHl0000002', {
        type: ExportHighlightType.image,
        imageUrl: 'https://www.example.com.cn/images/figure-1.png',
        slot: 3,
        color: '#8fd3f4',
      }),
      highlight(CJK_PAGE, 'SampleHl0000003', {
        type: ExportHighlightType.math,
        text: '$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$',
        annotation: 'Two lines:\n"quoted" and # not a tag: {{ not a template }}',
        slot: 2,
        color: '#a8e063',
      }),
    ],
  },
  {
    id: ENGLISH_PAGE,
    kind: 'page',
    title: 'An article with: colons, "quotes" and #hash',
    url: 'https://blog.example.org/post',
    readerUrl: `${READER}/${ENGLISH_PAGE}`,
    siteName: null,
    author: null,
    tags: [],
    folder: null,
    flow: Flow.inbox,
    content: '',
    createdAt: T0,
    updatedAt: T0,
    publishedAt: null,
    highlights: [],
  },
  {
    id: DAILY,
    kind: 'daily',
    title: '',
    url: '',
    readerUrl: `${READER}/${DAILY}`,
    siteName: null,
    author: null,
    tags: ['daily'],
    folder: null,
    flow: Flow.inbox,
    content: '## 今天\n\n- 读完了第一章\n- A list item with **bold** text\n\n> A quoted line',
    createdAt: T0,
    updatedAt: T0 + 3_600,
    publishedAt: null,
    highlights: [],
  },
];
