import { useTranslation } from 'react-i18next';
import { needsPushFeature } from '../../../src/schemas/membership.ts';
import { type IntegrationApp, isPullApp, isPushApp } from '../../../src/schemas/sync.ts';
import { Loaded } from '../../components/QueryState.tsx';
import { ProNote } from '../../features/membership/ProNote.tsx';
import { APPS, type AppInfo } from '../../features/sync/apps.ts';
import { ConnectPlugin } from '../../features/sync/ConnectPlugin.tsx';
import { ConnectPushForm } from '../../features/sync/ConnectPushForm.tsx';
import { ExportLink } from '../../features/sync/ExportLink.tsx';
import { IntegrationEntry } from '../../features/sync/IntegrationEntry.tsx';
import { SeedPluginNote } from '../../features/sync/SeedPluginNote.tsx';
import { SyncOptionsForm } from '../../features/sync/SyncOptionsForm.tsx';
import { LastRunError, SyncStatus } from '../../features/sync/SyncStatus.tsx';
import { TemplateEditor } from '../../features/sync/TemplateEditor.tsx';
import { useIntegration } from '../../features/sync/use-integration.ts';
import '../../styles/sync.css';

/** How an unbound tool gets connected: the push form, the plugin steps, or both (SiYuan). */
function Connect({ info }: { info: AppInfo }) {
  const { t } = useTranslation();
  const app = info.app;
  return (
    <section id="connect" className="settings-section" aria-labelledby="connect-title" data-testid="connect">
      <h2 id="connect-title" className="section-title">
        {t('sync.connectTitle', { app: t(`sync.app.${app}`) })}
      </h2>
      {info.push && isPushApp(app) && (
        <>
          <p className="muted">{t(`sync.pushIntro.${app}`)}</p>
          <ConnectPushForm app={app} form={info.push} />
        </>
      )}
      {info.pull && <ConnectPlugin info={info} />}
    </section>
  );
}

/**
 * /personSetting/sync (Obsidian), logseq, siyuan, flomo and workflowy: one page drawn from the
 * app's description. The entry, connecting (or the sync status once bound), what is sent and
 * how, the templates with their preview, and the Markdown export.
 */
export function IntegrationSettings({ app }: { app: IntegrationApp }) {
  const { t } = useTranslation();
  const query = useIntegration(app);
  const info = APPS[app];
  return (
    <Loaded query={query}>
      {(integration) => (
        <div className="settings-stack integration-page" data-app={app}>
          {needsPushFeature(app) && (
            <ProNote tipKey="membership.tipPush" tipParams={{ app: t(`sync.app.${app}`) }} />
          )}
          <IntegrationEntry integration={integration} />
          {integration.bound ? (
            <SyncStatus integration={integration} />
          ) : (
            <>
              <LastRunError integration={integration} />
              <Connect info={info} />
            </>
          )}
          <section className="settings-section" aria-labelledby="options-title">
            <h2 id="options-title" className="section-title">
              {t('sync.optionsTitle')}
            </h2>
            <SyncOptionsForm key={`${app}-options`} info={info} integration={integration} />
          </section>
          <section className="settings-section" aria-labelledby="templates-title">
            <h2 id="templates-title" className="section-title">
              {t('sync.templatesTitle')}
            </h2>
            <TemplateEditor key={`${app}-templates`} info={info} integration={integration} />
          </section>
          {isPullApp(app) && <SeedPluginNote app={app} />}
          <ExportLink />
        </div>
      )}
    </Loaded>
  );
}
