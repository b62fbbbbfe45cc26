import { type ReactNode, useId } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton.tsx';
import { InlineValue } from '../../components/InlineValue.tsx';

/** Where the examples' token goes: the reader puts one of theirs in its place. */
const TOKEN_PLACEHOLDER = 'YOUR_API_TOKEN';
const API_PATH = '/openapi/v1';
const DOCS_PATH = '/openapi/docs';
const DOCUMENT_PATH = `${API_PATH}/openapi.json`;

function curlListNotes(origin: string): string {
  return [`curl "${origin}${API_PATH}/notes" \\`, `  -H "Authorization: Bearer ${TOKEN_PLACEHOLDER}"`].join(
    '\n',
  );
}

function fetchCreateNote(origin: string): string {
  return `const response = await fetch('${origin}${API_PATH}/notes', {
  method: 'POST',
  headers: {
    Authorization: 'Bearer ${TOKEN_PLACEHOLDER}',
    'Content-Type': 'application/json',
    'Idempotency-Key': crypto.randomUUID(),
  },
  body: JSON.stringify({ url: 'https://example.com/article' }),
});
const { code, message, data } = await response.json();
if (code !== 1) throw new Error(message);
console.log(data);`;
}

/** Code to copy under its language's name: left to right in every language, scrolled sideways, never wrapped. */
function CodeBlock({ code, language, testId }: { code: string; language: string; testId: string }) {
  return (
    <div className="code-block">
      <div className="code-block-head">
        <span dir="ltr">{language}</span>
        <CopyButton text={code} testId={`copy-${testId}`} />
      </div>
      <pre dir="ltr" data-testid={testId}>
        <code>{code}</code>
      </pre>
    </div>
  );
}

function Example({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="api-example" aria-labelledby={id}>
      <h3 id={id} className="api-example-title">
        {title}
      </h3>
      <p className="form-note">{hint}</p>
      {children}
    </section>
  );
}

/** An iOS shortcut that adds what the user types to today's daily note. */
function ShortcutsRecipe({ origin }: { origin: string }) {
  const { t } = useTranslation();
  return (
    <ol className="steps shortcut-steps" data-testid="example-shortcuts">
      <li>{t('openapi.shortcutsStep1')}</li>
      <li>
        {t('openapi.shortcutsStep2')}
        <InlineValue value={`${origin}${API_PATH}/daily/today/append`} testId="shortcuts-url" />
      </li>
      <li>
        {t('openapi.shortcutsStep3')}
        <dl className="shortcut-values">
          <dt>{t('openapi.shortcutsMethod')}</dt>
          <dd>
            <code className="mono value-code" dir="ltr">
              POST
            </code>
          </dd>
          <dt>{t('openapi.shortcutsHeader')}</dt>
          <dd>
            <code className="mono value-code" dir="ltr">
              Authorization
            </code>
            <span aria-hidden="true"> : </span>
            <InlineValue value={`Bearer ${TOKEN_PLACEHOLDER}`} testId="shortcuts-header" />
          </dd>
        </dl>
      </li>
      <li>
        {/* One grid item: the step's sentence with the field name inside it. */}
        <span>
          <Trans
            i18nKey="openapi.shortcutsStep4"
            values={{ field: 'text' }}
            components={{ code: <code className="mono value-code" dir="ltr" /> }}
          />
        </span>
      </li>
      <li>{t('openapi.shortcutsStep5')}</li>
    </ol>
  );
}

/** Copy-paste examples filled in with this server's address, and the links to the documentation. */
export function ApiExamples() {
  const { t } = useTranslation();
  const origin = window.location.origin;
  const external = { target: '_blank', rel: 'noopener noreferrer' } as const;
  return (
    <div className="api-examples">
      <p className="muted">{t('openapi.examplesIntro', { token: TOKEN_PLACEHOLDER })}</p>
      <ul className="api-docs-links">
        <li>
          <a href={DOCS_PATH} {...external} data-testid="api-docs-link">
            {t('openapi.docsLink')}
            <span className="visually-hidden"> ({t('openapi.newTab')})</span>
          </a>
        </li>
        <li>
          <a href={DOCUMENT_PATH} {...external} data-testid="api-document-link">
            {t('openapi.documentLink')}
            <span className="visually-hidden"> ({t('openapi.newTab')})</span>
          </a>
        </li>
      </ul>
      <Example title={t('openapi.curlTitle')} hint={t('openapi.curlHint')}>
        <CodeBlock code={curlListNotes(origin)} language="Shell" testId="example-curl" />
      </Example>
      <Example title={t('openapi.fetchTitle')} hint={t('openapi.fetchHint')}>
        <CodeBlock code={fetchCreateNote(origin)} language="JavaScript" testId="example-fetch" />
      </Example>
      <Example title={t('openapi.shortcutsTitle')} hint={t('openapi.shortcutsHint')}>
        <ShortcutsRecipe origin={origin} />
      </Example>
    </div>
  );
}
