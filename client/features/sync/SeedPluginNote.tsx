import { useTranslation } from 'react-i18next';
import type { PullApp } from '../../../src/schemas/sync.ts';

/**
 * What WuCai's own plugin for this tool does against Margin, and what its protocol cannot say:
 * removals never reach the tool, and Logseq's plugin never rewrites a block it wrote.
 */
export function SeedPluginNote({ app }: { app: PullApp }) {
  const { t } = useTranslation();
  const name = t(`sync.app.${app}`);
  return (
    <section className="settings-section" aria-labelledby="seed-plugin-title" data-testid="seed-plugin-note">
      <h2 id="seed-plugin-title" className="section-title">
        {t('sync.seed.title')}
      </h2>
      <p className="muted">{t('sync.seed.intro', { app: name })}</p>
      <ul className="seed-limits">
        <li>{t('sync.seed.noRemovals', { app: name })}</li>
        {app === 'logseq' && <li>{t('sync.seed.logseqNoRewrite')}</li>}
      </ul>
    </section>
  );
}
