import { useTranslation } from 'react-i18next';

// The names a template can use (protocols/sync.md, server/domain/sync/templates/variables.ts).
// Code, not prose: they are never translated.
const NOTE_VARIABLES = [
  'title',
  'url',
  'readurl',
  'author',
  'domain',
  'tags',
  'trimtags',
  'pagenote',
  'isstar',
  'isdailynote',
  'mdcontent',
  'highlights',
  'highlightcount',
  'createat_ts',
  'updateat_ts',
  'publishat_ts',
  'noteid',
];
const HIGHLIGHT_VARIABLES = [
  'note',
  'annotation',
  'imageurl',
  'refurl',
  'tags',
  'color',
  'type',
  'createat_ts',
];
/** How a note template walks its highlights, and what a highlight template calls its one. */
const LOOP = '{% for h in highlights %} … {% endfor %}';
const FILTERS = ['date: "YYYY-MM-DD"', 'pretty', 'style1', 'yaml_text', 'yaml_list'];

function Names({ names }: { names: readonly string[] }) {
  return (
    <ul className="variable-list" dir="ltr">
      {names.map((name) => (
        <li key={name}>
          <code className="mono">{name}</code>
        </li>
      ))}
    </ul>
  );
}

/** A folded list of the variables and filters templates can use. */
export function TemplateVariables({ highlightsOnly }: { highlightsOnly: boolean }) {
  const { t } = useTranslation();
  const prefix = highlightsOnly ? 'highlight.' : 'h.';
  return (
    <details className="template-variables">
      <summary>{t('sync.variablesTitle')}</summary>
      <p className="form-note">{t('sync.variablesNote')}</p>
      <Names names={NOTE_VARIABLES} />
      <p className="form-note">
        {highlightsOnly ? t('sync.variablesHighlightOnly') : t('sync.variablesHighlight')}
      </p>
      {!highlightsOnly && (
        <p>
          <code className="mono" dir="ltr">
            {LOOP}
          </code>
        </p>
      )}
      <Names names={HIGHLIGHT_VARIABLES.map((name) => prefix + name)} />
      <p className="form-note">{t('sync.variablesFilters')}</p>
      <Names names={FILTERS} />
    </details>
  );
}
