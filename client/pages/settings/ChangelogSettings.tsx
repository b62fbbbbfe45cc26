import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import changelog from '../../../CHANGELOG.md?raw';
import { releaseNotes } from '../../features/tools/changelog.ts';
import { renderMarkdown } from '../../lib/markdown.ts';
import '../../features/tools/tools.css';

/** /personSetting/changelog, "What's new": CHANGELOG.md as the build found it, rendered safely. */
export function ChangelogSettings() {
  const { t } = useTranslation();
  const html = useMemo(() => renderMarkdown(releaseNotes(changelog)), []);
  return (
    <div className="settings-stack tools-page">
      <p className="muted">{t('changelog.intro')}</p>
      <article
        className="changelog"
        data-testid="changelog"
        // renderMarkdown escapes every character of the text before it adds its own markup.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by renderMarkdown
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </div>
  );
}
