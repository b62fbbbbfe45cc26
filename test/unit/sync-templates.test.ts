import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { fromNunjucks } from '../../server/domain/sync/templates/nunjucks.ts';
import {
  checkTemplates,
  DEFAULT_TEMPLATES,
  fileNameFor,
  pageVariables,
  type RenderContext,
  renderHighlight,
  renderNote,
  SAMPLE_RECORDS,
  workflowyNode,
} from '../../server/domain/sync/templates/render-engine.ts';
import { Flow } from '../../src/enums.ts';
import { AppError } from '../../src/errors.ts';
import {
  APP_TEMPLATES,
  type ExportRecord,
  INTEGRATION_APPS,
  type IntegrationApp,
  TagStyle,
  type Templates,
} from '../../src/schemas/sync.ts';

const UTC: RenderContext = { timeZone: 'UTC', tagStyle: TagStyle.hash };
const [CJK_PAGE, ENGLISH_PAGE, DAILY] = SAMPLE_RECORDS as [ExportRecord, ExportRecord, ExportRecord];
const IMAGE_URL = 'https://www.example.com.cn/images/figure-1.png';
const MATH = '$e^{i\\pi}+1=0$';

function frontMatter(markdown: string): Record<string, unknown> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(markdown);
  expect(match, 'front matter').not.toBeNull();
  return parseYaml(match![1]!) as Record<string, unknown>;
}

/** The AppError a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const note = (source: string, record: ExportRecord = CJK_PAGE, ctx = UTC) =>
  renderNote('obsidian', { note: source }, record, ctx).then((r) => r.markdown);

describe('default templates', () => {
  it('exist for exactly the templates each app uses', () => {
    for (const app of INTEGRATION_APPS) {
      expect(Object.keys(DEFAULT_TEMPLATES[app]).sort()).toEqual([...APP_TEMPLATES[app]].sort());
    }
  });

  it.each(['obsidian', 'siyuan'] as const)(
    '%s: front matter with margin_id, then the title and highlights',
    async (app) => {
      for (const record of SAMPLE_RECORDS) {
        const { markdown, title, fileName } = await renderNote(app, {}, record, UTC);
        const yaml = frontMatter(markdown);
        expect(yaml.margin_id).toBe(record.id);
        expect(yaml.title).toBe(title);
        expect(markdown).toContain(`\n# ${title}\n`);
        expect(fileName).toBe(fileNameFor(title, record.id));
      }
      const { markdown, title } = await renderNote(app, {}, CJK_PAGE, UTC);
      expect(title).toBe(CJK_PAGE.title);
      expect(frontMatter(markdown)).toMatchObject({
        url: CJK_PAGE.url,
        author: '李明',
        tags: ['读书', 'reading-list', '数学'],
        created: '2026-03-14',
      });
      expect(markdown).toContain('> 学而不思则罔，思而不学则殆。');
      expect(markdown).toContain(`> ![](${IMAGE_URL})`);
      expect(markdown).toContain(MATH);
      expect(markdown).toContain('$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$');
      expect(markdown).toContain(`[↗](${CJK_PAGE.highlights[0]!.link})`);
      expect(markdown).toContain('#经典 #to-do');
      // Text that looks like a template is the user's text, not rendered again.
      expect(markdown).toContain('{{ not a template }}');
      expect(frontMatter(await renderNote(app, {}, ENGLISH_PAGE, UTC).then((r) => r.markdown)).title).toBe(
        ENGLISH_PAGE.title,
      );
    },
  );

  it('obsidian: highlights and a daily note inside the partial-write markers', async () => {
    const page = (await renderNote('obsidian', {}, CJK_PAGE, UTC)).markdown;
    const block = /%%begin highlights%%\n([\s\S]*)%%end highlights%%/.exec(page)?.[1] ?? '';
    expect(block).toContain(`![](${IMAGE_URL})`);
    expect(block).toContain(MATH);
    const daily = await renderNote('obsidian', {}, DAILY, UTC);
    expect(daily.title).toBe('Daily 2026-03-14');
    expect(daily.markdown).toContain(`%%begin mdcontent%%\n${DAILY.content}\n%%end mdcontent%%`);
    expect(daily.markdown).not.toContain('%%begin highlights%%');
  });

  it('siyuan: no partial-write markers', async () => {
    for (const record of SAMPLE_RECORDS) {
      expect((await renderNote('siyuan', {}, record, UTC)).markdown).not.toContain('%%');
    }
    expect((await renderNote('siyuan', {}, DAILY, UTC)).markdown).toContain(DAILY.content);
  });

  it('logseq: page properties, then an outline with highlights as children and annotations below them', async () => {
    const { markdown } = await renderNote('logseq', {}, CJK_PAGE, UTC);
    const [properties, outline] = markdown.split('\n\n') as [string, string];
    expect(properties.split('\n')).toEqual([
      `margin-id:: ${CJK_PAGE.id}`,
      `url:: ${CJK_PAGE.url}`,
      'author:: 李明',
      'tags:: 读书, reading list, 数学',
      'created:: 2026-03-14',
    ]);
    expect(outline).toContain('\n- Highlights\n  - 学而不思则罔，思而不学则殆。\n    知之为知之');
    expect(outline).toContain(`\n    - 欧拉恒等式：${MATH}`);
    expect(outline).toContain(`\n  - ![](${IMAGE_URL})`);
    // Every line is a block or the continuation of one.
    for (const line of outline.trimEnd().split('\n')) expect(line).toMatch(/^(\s*- |\s+\S)/);
    for (const record of [ENGLISH_PAGE, DAILY]) {
      expect((await renderNote('logseq', {}, record, UTC)).markdown).toContain(`margin-id:: ${record.id}\n`);
    }
  });

  it('flomo: the passage, the annotation, #tags inline and a link', async () => {
    const [text, image] = CJK_PAGE.highlights as [
      ExportRecord['highlights'][0],
      ExportRecord['highlights'][0],
    ];
    const memo = await renderHighlight('flomo', {}, CJK_PAGE, text, { ...UTC, tagStyle: TagStyle.wikilink });
    expect(memo).toBe(
      [
        text.text,
        `欧拉恒等式：${MATH}`,
        '#读书 #reading-list #数学 #经典 #to-do',
        `${CJK_PAGE.title} ${text.link}`,
      ].join('\n\n'),
    );
    expect(await renderHighlight('flomo', {}, CJK_PAGE, image, UTC)).toContain(IMAGE_URL);
  });

  it('workflowy: the first line is the name, the rest the note', async () => {
    const highlight = CJK_PAGE.highlights[0]!;
    const node = workflowyNode(await renderHighlight('workflowy', {}, CJK_PAGE, highlight, UTC));
    expect(node.name).toBe('学而不思则罔，思而不学则殆。 知之为知之，不知为不知，是知也。');
    expect(node.note).toContain(MATH);
    expect(node.note).toContain(highlight.link);
  });

  it('pass their own check, with no unknown variable', async () => {
    for (const app of INTEGRATION_APPS) await expect(checkTemplates(app, {})).resolves.toEqual([]);
  });
});

describe('user templates', () => {
  it('take filters in the Nunjucks spelling and in Liquid’s', async () => {
    const source =
      '{{ createat_ts | date("YYYY-MM-DD") }}|{{ createat_ts | date: "YYYY-MM-DD" }}|{{ title | yaml_text() }}';
    expect(await note(source, ENGLISH_PAGE)).toBe(
      `2026-03-14|2026-03-14|${JSON.stringify(ENGLISH_PAGE.title)}`,
    );
  });

  it('render a seed-product template unchanged', async () => {
    const seed = [
      '---',
      '标题: "{{title}}"',
      '笔记ID: {{noteid}}',
      '{{ mergedtags | yaml_field("tags:") }}',
      '---',
      '{% if not isdailynote %}',
      '## {{title}}',
      '{% elif isstar %}',
      'never',
      '{% endif %}',
      '{% block highlights %}',
      '{% for item in highlights %}',
      '{% set n = loop.index %}',
      '{{ n }}. {{ item | style1({prefix:"> ", anno:"> __想法__：", refid:true}) }}',
      '{% endfor %}',
      '{% endblock %}',
    ].join('\n');
    const markdown = await note(seed);
    expect(frontMatter(markdown)).toMatchObject({
      笔记ID: CJK_PAGE.id,
      tags: '#读书 #reading-list #数学 #经典 #to-do',
    });
    expect(markdown).toContain(`## ${CJK_PAGE.title}\n%%begin highlights%%\n1. > 学而不思则罔`);
    expect(markdown).toContain(
      `> 知之为知之，不知为不知，是知也。 ^${CJK_PAGE.highlights[0]!.id}\n> __想法__：欧拉恒等式`,
    );
    expect(markdown).toContain(`2. > ![](${IMAGE_URL}) ^`);
    expect(markdown).toMatch(/%%end highlights%%\n$/);
    expect(markdown).not.toContain('never');
  });

  it('write tags in the chosen style', async () => {
    const source = '{{ tags }}|{{ mergedtags }}|{{ trimtags }}';
    expect(await note(source, CJK_PAGE, { ...UTC, tagStyle: TagStyle.wikilink })).toBe(
      '[[读书]] [[reading list]] [[数学]]|[[读书]] [[reading list]] [[数学]] [[经典]] [[to do]]|["读书", "reading-list", "数学"]',
    );
    expect(await note('{{ tags }}')).toBe('#读书 #reading-list #数学');
  });

  it('format dates in the user’s time zone from seconds, milliseconds or ISO text', async () => {
    const shanghai = { ...UTC, timeZone: 'Asia/Shanghai' };
    expect(await note('{{ createat_ts | date("YYYY-MM-DD") }}', CJK_PAGE, shanghai)).toBe('2026-03-15');
    expect(await note('{{ createat_ts | date("YYYY-MM-DD") }}', CJK_PAGE, UTC)).toBe('2026-03-14');
    expect(await note('{{ createat }}', CJK_PAGE, shanghai)).toBe('2026-03-15 07:30');
    const inputs =
      '{{ 1773531000000 | date: "YYYY-MM-DD HH:mm" }}|{{ "2026-03-14T23:30:00Z" | date: "HH:mm" }}';
    expect(await note(inputs, CJK_PAGE, shanghai)).toBe('2026-03-15 07:30|07:30');
    expect(await note('{{ createat_ts | date: "%Y/%m/%d %H:%M" }}', CJK_PAGE, shanghai)).toBe(
      '2026/03/15 07:30',
    );
    expect(await note('[{{ publishat_ts | date: "YYYY" }}]', ENGLISH_PAGE)).toBe('[]');
    // An unknown zone falls back to UTC rather than failing every sync.
    expect(await note('{{ createat }}', CJK_PAGE, { ...UTC, timeZone: 'Mars/Olympus' })).toBe(
      '2026-03-14 23:30',
    );
  });

  it('have YAML-safe filters', async () => {
    const tricky = { ...ENGLISH_PAGE, title: 'a: b # c\n"d"\t\\ \u0085 \u007f [e]' };
    const markdown = await note(
      '---\nt: {{ title | yaml_text }}\nl: {{ "x; y;;z" | yaml_list: ";" }}\n{{ author | yaml_field: "author" }}\n{{ highlightcount | yaml_field: "n:" }}\n---\n',
      tricky,
    );
    expect(frontMatter(markdown)).toEqual({ t: tricky.title, l: ['x', 'y', 'z'], n: 0 });
  });

  it('have pretty, style1 and style_dailynote', async () => {
    const h = {
      ...CJK_PAGE.highlights[0]!,
      annotation: null,
      createdAt: 1_773_531_000,
      slot: 2,
      color: '#abc',
    };
    const record = {
      ...CJK_PAGE,
      highlights: [h, { ...h, id: 'SecondHl0000001', text: 'Later', createdAt: h.createdAt + 120 }],
    };
    expect(await note('{{ highlights[0].note | pretty: "- " }}', record)).toBe(
      '- 学而不思则罔，思而不学则殆。\n-\n- 知之为知之，不知为不知，是知也。',
    );
    expect(
      await note('{{ highlights[0] | style1: color_tags: "A,B", color_line: true, links: true }}', record),
    ).toBe(
      `<font color="#abc">B</font>学而不思则罔，思而不学则殆。\n<font color="#abc">知之为知之，不知为不知，是知也。</font> [↗](${h.link})\n`,
    );
    expect(await note('{{ highlights | style_dailynote: groupby: "hour" }}', record)).toBe(
      `### 2026-03-14 23:00\n\n${h.text}\n\nLater\n`,
    );
  });

  it('cannot read the runtime through a variable', async () => {
    expect(
      await note('[{{ highlights.constructor }}{{ title.constructor.name }}{{ highlights.__proto__ }}]'),
    ).toBe('[]');
  });
});

describe('template errors', () => {
  it('name the template and the line of an unknown filter, whatever the Nunjucks rewrite did', async () => {
    const source =
      '{{ createat_ts | date("YYYY") }} {{ title | pretty({prefix: "> "}) }}\n\n{{ title | nope("x") }}';
    const error = await rejection(checkTemplates('obsidian', { note: source }));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.messageKey).toBe('errors.templateInvalid');
    expect(error.params).toEqual({ template: 'note', line: 3, detail: 'undefined filter: nope' });
    const title = await rejection(checkTemplates('logseq', { title: 'x {{ title | upcase | shout }}' }));
    expect(title.params).toMatchObject({ template: 'title', line: 1 });
    const highlight = await rejection(
      checkTemplates('flomo', { highlight: '\n{{ highlight.note | nope }}' }),
    );
    expect(highlight.params).toMatchObject({ template: 'highlight', line: 2 });
  });

  it('report syntax errors with their line', async () => {
    const unclosed = await rejection(checkTemplates('obsidian', { note: 'a\n{% if title %}\nb' }));
    expect(unclosed.params).toMatchObject({ template: 'note', line: 2 });
    expect(String(unclosed.params?.detail)).toMatch(/not closed/);
    const badOutput = await rejection(checkTemplates('siyuan', { note: 'a\nb\nc\n{{ title ' }));
    expect(badOutput.params).toMatchObject({ line: 4 });
    expect(String(badOutput.params?.detail)).not.toMatch(/\n\s+at /);
  });

  it('stop a runaway loop at the render limit', async () => {
    const started = Date.now();
    const huge = await rejection(note('{% for i in (1..100000000) %}{{ i }}{% endfor %}'));
    expect(huge.messageKey).toBe('errors.templateInvalid');
    // Small ranges (little memory), ten million steps: only the clock stops this one.
    const nested = '{% for i in (1..1000000) %}\n{% for j in (1..10) %}{{ j }}{% endfor %}{% endfor %}';
    const endless = await rejection(note(nested));
    expect(endless.params).toMatchObject({ template: 'note', detail: 'template render limit exceeded' });
    // Where the clock runs out (the outer loop's line or the inner one's) depends on the machine's load.
    expect([1, 2]).toContain(endless.params?.line);
    // Stopped by the limit, not run out: the loops would take minutes.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('refuse output over the cap', async () => {
    const error = await rejection(note('{% for i in (1..120000) %}0123456789{% endfor %}'));
    expect(error.messageKey).toBe('errors.templateOutputTooLarge');
    expect(error.params).toMatchObject({ template: 'note' });
  });

  it.each([
    "{% include '/etc/passwd' %}",
    "{% render '/etc/passwd' %}",
    "{% layout '/etc/passwd' %}",
    '{% include "../../package.json" %}',
  ])('refuse to read files: %s', async (source) => {
    const error = await rejection(note(`ok\n${source}`));
    expect(error.params).toMatchObject({ template: 'note', line: 2 });
    expect(String(error.params?.detail)).not.toContain('root:');
  });
});

describe('fromNunjucks', () => {
  it('rewrites filter calls, elif, set and loop only inside delimiters, keeping every line', () => {
    const source = [
      'text | date("x") stays',
      '{{ a | date("YYYY-MM-DD") | pretty({prefix: "> ", trim: false}) | upcase() }}',
      '{% if a %}{% elif b | size(1) %}{% elseif c %}{% endif %}',
      '{% set x = loop.index %}{% set y %}{{ "| f(1)" }}{% endset %}',
      '{% raw %}{{ a | date("x") }}{% endraw %}',
      '{{ a |',
      '  date(',
      '"x") }}',
    ].join('\n');
    const out = fromNunjucks(source);
    expect(out.split('\n')).toEqual([
      'text | date("x") stays',
      '{{ a | date:"YYYY-MM-DD"  | pretty: prefix: "> ", trim: false   | upcase   }}',
      '{% if a %}{% elsif b | size:1  %}{% elsif c %}{% endif %}',
      '{% assign x = forloop.index %}{% capture y %}{{ "| f(1)" }}{% endcapture %}',
      '{% raw %}{{ a | date("x") }}{% endraw %}',
      '{{ a |',
      '  date:',
      '"x"  }}',
    ]);
  });

  it('leaves Liquid alone', () => {
    const liquid = '{% for h in highlights %}{{ h.note | date: "YYYY" | append: "(x)" }}{% endfor %}';
    expect(fromNunjucks(liquid)).toBe(liquid);
  });
});

describe('pageVariables', () => {
  it('has the protocol’s names', () => {
    const vars = pageVariables(CJK_PAGE, UTC);
    for (const name of 'title url wucaiurl readurl tags trimtags mergedtags pagenote pagescore isstar ispagemirror highlights highlightcount createat createat_ts updateat updateat_ts publishat_ts noteid citekey author diffupdateat_ts domain domain2 mdcontent notetype isdailynote annotationcount'.split(
      ' ',
    )) {
      expect(vars, name).toHaveProperty(name);
    }
    expect(vars).toMatchObject({
      domain: 'www.example.com.cn',
      domain2: 'com.cn',
      isstar: CJK_PAGE.flow === Flow.shortlist,
      highlightcount: 3,
      annotationcount: 2,
      notetype: 'page',
      diffupdateat_ts: CJK_PAGE.updatedAt,
    });
    const [first] = vars.highlights as Record<string, unknown>[];
    for (const name of 'type refid refurl note imageurl annonation tags color slotid createat_ts updateat_ts'.split(
      ' ',
    )) {
      expect(first, name).toHaveProperty(name);
    }
    expect(pageVariables(DAILY, UTC)).toMatchObject({
      notetype: 'dailynote',
      isdailynote: true,
      mdcontent: DAILY.content,
    });
  });
});

describe('fileNameFor', () => {
  const bytes = (s: string) => Buffer.byteLength(s);

  it('drops characters no file system allows', () => {
    expect(fileNameFor('a/b\\c: d*e?"f"<g>|h', 'id123456')).toBe('a b c d e f g h-id123456.md');
    expect(fileNameFor('tab\there\u0000nul\u001fend', 'id123456')).toBe('tab here nul end-id123456.md');
    expect(fileNameFor('trailing dots... ', 'id123456')).toBe('trailing dots-id123456.md');
    expect(fileNameFor('.hidden', 'id123456')).toBe('hidden-id123456.md');
  });

  it('is never empty', () => {
    expect(fileNameFor('', 'id123456')).toBe('Untitled-id123456.md');
    expect(fileNameFor('..', 'id123456')).toBe('Untitled-id123456.md');
    expect(fileNameFor(' / ', 'id123456')).toBe('Untitled-id123456.md');
  });

  it('keeps emoji and CJK whole while cutting to about 200 bytes', () => {
    expect(fileNameFor('Reading 📚 notes 👩‍💻', 'id123456')).toBe('Reading 📚 notes 👩‍💻-id123456.md');
    const cjk = fileNameFor('中'.repeat(300), 'id123456');
    expect(cjk).toBe(`${'中'.repeat(66)}-id123456.md`);
    expect(bytes(cjk)).toBeLessThan(255);
    const emoji = fileNameFor('👩‍💻'.repeat(30), 'id123456');
    expect(emoji.replace('-id123456.md', '')).toMatch(/^(👩‍💻)+$/u);
    expect(bytes(emoji)).toBeLessThan(255);
  });
});

describe('render context', () => {
  it('flomo always writes #tags', async () => {
    const templates: Templates = { highlight: '{{ tags }}' };
    const app: IntegrationApp = 'flomo';
    expect(
      await renderHighlight(app, templates, CJK_PAGE, CJK_PAGE.highlights[0]!, {
        ...UTC,
        tagStyle: TagStyle.wikilink,
      }),
    ).toBe('#读书 #reading-list #数学');
  });
});
