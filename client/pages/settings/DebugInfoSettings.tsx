import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { BUILD } from '../../../src/constants.ts';
import type { Me } from '../../../src/schemas/auth.ts';
import type { SystemInfo } from '../../../src/schemas/system.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import {
  localStorageAvailable,
  type ReportRow,
  type ReportSection,
  reportText,
} from '../../features/debug/debug-report.ts';
import { useExtensionInfo } from '../../features/debug/use-extension-info.ts';
import { type HealthResult, useHealth } from '../../features/debug/use-health.ts';
import { useTheme } from '../../features/theme/theme-store.ts';
import type { ExtensionInfo } from '../../features/tools/environment.ts';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { useSystemInfo } from '../../lib/use-system-info.ts';
import '../../styles/debug-info.css';

function appSection(t: TFunction, language: string, me: Me, info: SystemInfo | undefined): ReportSection {
  const pending = t('debugInfo.checking');
  return {
    id: 'app',
    title: t('debugInfo.app'),
    rows: [
      { id: 'version', label: t('debugInfo.appVersion'), value: info?.version ?? pending, ltr: true },
      { id: 'client-build', label: t('debugInfo.clientBuild'), value: __BUILD_VERSION__, ltr: true },
      {
        id: 'build',
        label: t('debugInfo.build'),
        value: `${BUILD.appId} · ${BUILD.endpoint} · ${BUILD.profile}`,
        ltr: true,
      },
      { id: 'region', label: t('debugInfo.region'), value: info?.region ?? pending, ltr: true },
      {
        id: 'membership',
        label: t('debugInfo.membership'),
        value: info ? t(info.membershipOn ? 'debugInfo.on' : 'debugInfo.off') : pending,
      },
      { id: 'account', label: t('debugInfo.accountId'), value: me.accountId, ltr: true },
      { id: 'language', label: t('debugInfo.language'), value: language, ltr: true },
    ],
  };
}

function browserSection(t: TFunction, prefersDark: boolean, themeShown: 'dark' | 'light'): ReportSection {
  const available = (yes: boolean) => t(yes ? 'debugInfo.available' : 'debugInfo.unavailable');
  return {
    id: 'browser',
    title: t('debugInfo.browser'),
    rows: [
      { id: 'user-agent', label: t('debugInfo.userAgent'), value: navigator.userAgent, ltr: true },
      {
        id: 'languages',
        label: t('debugInfo.languages'),
        value: (navigator.languages?.length ? navigator.languages : [navigator.language]).join(', '),
        ltr: true,
      },
      {
        id: 'time-zone',
        label: t('debugInfo.timeZone'),
        value: Intl.DateTimeFormat().resolvedOptions().timeZone,
        ltr: true,
      },
      { id: 'screen', label: t('debugInfo.screen'), value: `${screen.width} × ${screen.height}`, ltr: true },
      { id: 'window', label: t('debugInfo.window'), value: `${innerWidth} × ${innerHeight}`, ltr: true },
      { id: 'pixel-ratio', label: t('debugInfo.pixelRatio'), value: String(devicePixelRatio), ltr: true },
      {
        id: 'colour-scheme',
        label: t('debugInfo.colourScheme'),
        value: t(prefersDark ? 'debugInfo.schemeDark' : 'debugInfo.schemeLight'),
      },
      {
        id: 'theme',
        label: t('debugInfo.theme'),
        value: t(themeShown === 'dark' ? 'debugInfo.schemeDark' : 'debugInfo.schemeLight'),
      },
      { id: 'cookies', label: t('debugInfo.cookies'), value: available(navigator.cookieEnabled) },
      { id: 'local-storage', label: t('debugInfo.localStorage'), value: available(localStorageAvailable()) },
    ],
  };
}

function extensionSection(t: TFunction, extension: ExtensionInfo | null): ReportSection {
  const rows: ReportRow[] = extension
    ? [
        { id: 'market', label: t('debugInfo.extensionMarket'), value: extension.market ?? '', ltr: true },
        { id: 'version', label: t('debugInfo.extensionVersion'), value: extension.version ?? '', ltr: true },
        {
          id: 'market-version',
          label: t('debugInfo.extensionMarketVersion'),
          value: extension.marketVersion ?? '',
          ltr: true,
        },
      ].map((row) => ({ ...row, value: row.value || t('debugInfo.notGiven') }))
    : [{ id: 'status', label: t('debugInfo.extensionStatus'), value: t('debugInfo.notInstalled') }];
  return { id: 'extension', title: t('debugInfo.extension'), rows };
}

function serverSection(t: TFunction, health: HealthResult | undefined, checking: boolean): ReportSection {
  const title = t('debugInfo.server');
  if (!health || checking)
    return {
      id: 'server',
      title,
      rows: [{ id: 'health', label: t('debugInfo.health'), value: t('debugInfo.checking') }],
    };
  if (health.status === 'unreachable')
    return {
      id: 'server',
      title,
      rows: [
        { id: 'health', label: t('debugInfo.health'), value: t('debugInfo.unreachable'), state: 'failing' },
      ],
    };
  const ok = health.status === 'ok';
  return {
    id: 'server',
    title,
    rows: [
      {
        id: 'health',
        label: t('debugInfo.health'),
        value: t(ok ? 'debugInfo.healthOk' : 'debugInfo.healthFailing'),
        state: ok ? 'ok' : 'failing',
      },
      {
        id: 'round-trip',
        label: t('debugInfo.roundTrip'),
        value: t('debugInfo.milliseconds', { ms: health.roundTripMs }),
      },
    ],
  };
}

function Section({ section }: { section: ReportSection }) {
  return (
    <section
      className="debug-section"
      aria-labelledby={`debug-${section.id}`}
      data-testid={`debug-${section.id}`}
    >
      <h2 id={`debug-${section.id}`} className="eyebrow">
        {section.title}
      </h2>
      <dl className="details debug-details">
        {section.rows.map((row) => (
          <div key={row.id} className="debug-row" data-testid={`debug-${section.id}-${row.id}`}>
            <dt>{row.label}</dt>
            <dd data-state={row.state}>
              {row.state && <span className="debug-state-dot" aria-hidden="true" />}
              {row.ltr ? <bdi dir="ltr">{row.value}</bdi> : row.value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** /personSetting/debuginfo: the app, browser, extension and server facts a problem report needs, and a copy of them. */
export function DebugInfoSettings({ me }: { me: Me }) {
  const { t, i18n } = useTranslation();
  const info = useSystemInfo();
  const health = useHealth();
  const extension = useExtensionInfo();
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)');
  const { shown } = useTheme();
  const sections = [
    appSection(t, i18n.language, me, info.data),
    browserSection(t, prefersDark, shown),
    extensionSection(t, extension),
    serverSection(t, health.data, health.isFetching),
  ];
  return (
    <div className="debug-info">
      <p className="muted">{t('debugInfo.intro')}</p>
      <div className="debug-actions">
        <CopyButton
          text={reportText(t('debugInfo.reportTitle'), sections)}
          label={t('debugInfo.copy')}
          testId="debug-copy"
        />
        <button
          type="button"
          className="button button-small"
          disabled={health.isFetching}
          data-testid="debug-recheck"
          onClick={() => void health.refetch()}
        >
          {t('debugInfo.recheck')}
        </button>
      </div>
      {sections.map((section) => (
        <Section key={section.id} section={section} />
      ))}
    </div>
  );
}
