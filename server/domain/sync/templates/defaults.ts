import type { IntegrationApp, Templates } from '../../../../src/schemas/sync.ts';

// The templates an integration uses until the user writes their own (only the names
// APP_TEMPLATES lists for the app). They render with the engine's Nunjucks-like whitespace
// rules: a line holding only a `{% %}` tag leaves nothing behind, so a line that must end
// with a newline ends with text or `{{ }}`, never with a tag.

/** The note's title, or `Daily <date>` for a daily note that has none. */
const TITLE = '{% if title %}{{ title }}{% else %}Daily {{ createat_ts | date: "YYYY-MM-DD" }}{% endif %}';
const HEADING = `{% capture heading %}${TITLE}{% endcapture %}\n`;

/** Front matter: `margin_id` is how a synced file is matched to its note. */
const FRONT_MATTER = `---
margin_id: {{ noteid }}
title: {{ heading | yaml_text }}
{% if url %}
url: {{ url | yaml_text }}
{% endif %}
{% if author %}
author: {{ author | yaml_text }}
{% endif %}
tags: {{ trimtags }}
created: {{ createat_ts | date: "YYYY-MM-DD" }}
---

# {{ heading }}

{% if url %}
[{{ domain | default: url }}]({{ url }}) · [Margin]({{ readurl }})
{% else %}
[Margin]({{ readurl }})
{% endif %}
`;

const HIGHLIGHT_LIST = `{% for h in highlights %}
{% if h.imageurl %}
> ![]({{ h.imageurl }})
{% else %}
{{ h.note | pretty: prefix: "> " }}
{% endif %}
> [↗]({{ h.refurl }})
{% if h.annonation %}

{{ h.annonation | strip }}
{% endif %}
{% if h.tags %}

{{ h.tags }}
{% endif %}

{% endfor %}
`;

/** Obsidian: the `%%begin …%%` / `%%end …%%` markers let partial write mode replace only those blocks. */
const OBSIDIAN_NOTE = `${HEADING}${FRONT_MATTER}{% if isdailynote %}

%%begin mdcontent%%
{{ mdcontent | strip }}
%%end mdcontent%%
{% endif %}
{% unless isdailynote and highlightcount == 0 %}

## Highlights

%%begin highlights%%
${HIGHLIGHT_LIST}%%end highlights%%
{% endunless %}
`;

const SIYUAN_NOTE = `${HEADING}${FRONT_MATTER}{% if isdailynote %}

{{ mdcontent | strip }}
{% endif %}
{% if highlightcount > 0 %}

## Highlights

${HIGHLIGHT_LIST}{% endif %}
`;

/** Logseq: page properties first (the page's first block), then one block per line of outline. */
const LOGSEQ_NOTE = `${HEADING}margin-id:: {{ noteid }}
{% if url %}
url:: {{ url }}
{% endif %}
{% if author %}
author:: {{ author }}
{% endif %}
{% if taglist.size > 0 %}
tags:: {{ taglist | join: ", " }}
{% endif %}
created:: {{ createat_ts | date: "YYYY-MM-DD" }}

{% if url %}
- [{{ heading }}]({{ url }}) · [Margin]({{ readurl }})
{% else %}
- [{{ heading }}]({{ readurl }})
{% endif %}
{% if isdailynote %}
- {{ mdcontent | strip | replace: "\\n", "\\n  " }}
{% endif %}
{% if highlightcount > 0 %}
- Highlights
{% for h in highlights %}
{% if h.imageurl %}
  - ![]({{ h.imageurl }}) {{ h.tags }} [↗]({{ h.refurl }})
{% else %}
  - {{ h.note | strip | replace: "\\n", "\\n    " }} {{ h.tags }} [↗]({{ h.refurl }})
{% endif %}
{% if h.annonation %}
    - {{ h.annonation | strip | replace: "\\n", "\\n      " }}
{% endif %}
{% endfor %}
{% endif %}
`;

/** flomo: one memo per highlight: the passage, the annotation, the tags inline, the source. */
const FLOMO_HIGHLIGHT = `{% if highlight.imageurl %}
{{ highlight.imageurl }}
{% else %}
{{ highlight.note | strip }}
{% endif %}
{% if highlight.annonation %}

{{ highlight.annonation | strip }}
{% endif %}
{% if mergedtags %}

{{ mergedtags }}
{% endif %}

{{ title }} {{ highlight.refurl }}
`;

/** WorkFlowy needs a name and a note: the first line is the node's name, the rest its note. */
const WORKFLOWY_HIGHLIGHT = `{% comment %}The first line is the node's name, the other lines its note.{% endcomment %}
{% if highlight.imageurl %}
{{ highlight.imageurl }}
{% else %}
{{ highlight.note | strip | replace: "\\n", " " }}
{% endif %}
{% if highlight.annonation %}
{{ highlight.annonation | strip }}
{% endif %}
{% if mergedtags %}
{{ mergedtags }}
{% endif %}
{{ title }} {{ highlight.refurl }}
`;

export const DEFAULT_TEMPLATES: Readonly<Record<IntegrationApp, Templates>> = {
  obsidian: { title: TITLE, note: OBSIDIAN_NOTE },
  logseq: { title: TITLE, note: LOGSEQ_NOTE },
  siyuan: { title: TITLE, note: SIYUAN_NOTE },
  flomo: { highlight: FLOMO_HIGHLIGHT },
  workflowy: { highlight: WORKFLOWY_HIGHLIGHT },
};
