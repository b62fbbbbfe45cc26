import { Activity, type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { AppShell } from './features/shell/AppShell.tsx';
import { withTranslations } from './i18n.ts';
import { HomePage } from './pages/HomePage.tsx';

// Everything but the home page loads on demand, keeping the home route's JavaScript small, each
// page with the words it shows beyond the first screen's (screen-words.ts).
const DailyPage = lazy(() =>
  withTranslations(import('./pages/DailyPage.tsx'), 'daily').then((m) => ({
    default: m.DailyPage,
  })),
);
const PostDailyPage = lazy(() =>
  withTranslations(import('./pages/DailyPage.tsx'), 'daily').then((m) => ({
    default: m.PostDailyPage,
  })),
);
const LoginPage = lazy(() =>
  withTranslations(import('./pages/LoginPage.tsx'), 'login').then((m) => ({
    default: m.LoginPage,
  })),
);
const RegisterPage = lazy(() =>
  withTranslations(import('./pages/RegisterPage.tsx'), 'register').then((m) => ({
    default: m.RegisterPage,
  })),
);
const ForgetPage = lazy(() =>
  withTranslations(import('./pages/ForgetPage.tsx'), 'forget').then((m) => ({
    default: m.ForgetPage,
  })),
);
const QrLoginPage = lazy(() =>
  withTranslations(import('./pages/QrLoginPage.tsx'), 'qrLogin').then((m) => ({
    default: m.QrLoginPage,
  })),
);
const DeviceConfirmPage = lazy(() =>
  withTranslations(import('./features/sync/DeviceConfirmPage.tsx'), 'deviceConfirm').then((m) => ({
    default: m.DeviceConfirmPage,
  })),
);
const NotFoundPage = lazy(() =>
  withTranslations(import('./pages/NotFoundPage.tsx'), 'notFound').then((m) => ({ default: m.NotFoundPage })),
);
const SettingsPage = lazy(() =>
  withTranslations(import('./pages/settings/SettingsPage.tsx'), 'settings').then((m) => ({
    default: m.SettingsPage,
  })),
);
const HighlightListPage = lazy(() =>
  withTranslations(import('./features/highlights/HighlightListPage.tsx'), 'highlightList').then((m) => ({
    default: m.HighlightListPage,
  })),
);

/** Spec: `/` (the notes list), `/daily` and `/postdaily` stay mounted when navigating away. */
const KEPT_ALIVE: readonly { path: string; Page: ComponentType }[] = [
  { path: '/', Page: HomePage },
  { path: '/daily', Page: DailyPage },
  { path: '/postdaily', Page: PostDailyPage },
];

const AUTH_PAGES: Record<string, ComponentType> = {
  '/login': LoginPage,
  '/register': RegisterPage,
  '/forget': ForgetPage,
};

/** `/qrlogin/:ticketId`: the phone's confirmation page for QR login (no app chrome). */
function qrTicketOf(path: string): string | null {
  return /^\/qrlogin\/([A-Za-z0-9_-]+)$/.exec(path)?.[1] ?? null;
}

/** `/page/gentoken/:serviceId/:clientId`: a note-tool plugin's device-flow confirmation (no app chrome). */
function deviceRequestOf(path: string): { serviceId: number; clientId: string } | null {
  const match = /^\/page\/gentoken\/(\d{1,4})\/([^/]+)$/.exec(path);
  if (!match?.[1] || !match[2]) return null;
  try {
    return { serviceId: Number(match[1]), clientId: decodeURIComponent(match[2]) };
  } catch {
    return null;
  }
}

function isShellPath(path: string): boolean {
  return (
    KEPT_ALIVE.some((r) => r.path === path) ||
    path === '/highlights' ||
    path === '/personSetting' ||
    path.startsWith('/personSetting/')
  );
}

/** Pages inside the app chrome. Kept-alive pages are hidden with <Activity>, never unmounted. */
function ShellRoutes({ location }: { location: string }) {
  const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set([location]));
  useEffect(() => {
    setVisited((prev) => (prev.has(location) ? prev : new Set(prev).add(location)));
  }, [location]);
  const keptAlive = KEPT_ALIVE.some((r) => r.path === location);
  return (
    <AppShell>
      {KEPT_ALIVE.filter((r) => visited.has(r.path) || r.path === location).map(({ path, Page }) => (
        <Activity key={path} mode={path === location ? 'visible' : 'hidden'}>
          <Suspense fallback={null}>
            <Page />
          </Suspense>
        </Activity>
      ))}
      {!keptAlive && (
        <Switch>
          <Route path="/highlights">
            <HighlightListPage />
          </Route>
          <Route path="/personSetting">
            <Redirect to="/personSetting/user" replace />
          </Route>
          <Route path="/personSetting/:page">{(params) => <SettingsPage segment={params.page} />}</Route>
        </Switch>
      )}
    </AppShell>
  );
}

export function AppRoutes() {
  const [location] = useLocation();
  const inShell = isShellPath(location);
  // The shell stays mounted (hidden) on /login and /404, showing where the user last was.
  const [lastShellLocation, setLastShellLocation] = useState<string | null>(inShell ? location : null);
  useEffect(() => {
    if (inShell) setLastShellLocation(location);
  }, [inShell, location]);
  const shellLocation = inShell ? location : lastShellLocation;
  const AuthPage = AUTH_PAGES[location];
  const qrTicket = qrTicketOf(location);
  const deviceRequest = deviceRequestOf(location);
  return (
    <Suspense fallback={null}>
      {shellLocation && (
        <Activity mode={inShell ? 'visible' : 'hidden'}>
          <ShellRoutes location={shellLocation} />
        </Activity>
      )}
      {AuthPage && <AuthPage />}
      {qrTicket && <QrLoginPage ticketId={qrTicket} />}
      {deviceRequest && <DeviceConfirmPage {...deviceRequest} />}
      {location === '/404' && <NotFoundPage />}
      {!inShell && !AuthPage && !qrTicket && !deviceRequest && location !== '/404' && (
        <Redirect to="/404" replace />
      )}
    </Suspense>
  );
}
