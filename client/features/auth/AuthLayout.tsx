import type { ReactNode } from 'react';
import { Footer, TopBarActions } from '../shell/AppShell.tsx';
import { Brand } from '../shell/Brand.tsx';

/**
 * /login, /register, /forget and the phone's /qrlogin page: the navigation bar over a centred
 * card. `aside` (other ways to sign in) becomes a second column on wide screens.
 */
export function AuthLayout({
  title,
  subtitle,
  children,
  aside,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <div className="auth-layout">
      <header className="topbar auth-topbar">
        <Brand />
        <div className="topbar-spacer" />
        <TopBarActions account={false} />
      </header>
      <main id="main" className="auth-main">
        <div className={aside ? 'auth-card auth-card-wide' : 'auth-card'}>
          <div className="auth-primary">
            <h1 className="auth-title">{title}</h1>
            {subtitle && <p className="auth-subtitle">{subtitle}</p>}
            {children}
          </div>
          {aside && <div className="auth-aside">{aside}</div>}
        </div>
      </main>
      <Footer />
    </div>
  );
}
