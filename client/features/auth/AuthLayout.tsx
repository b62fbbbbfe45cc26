import type { ReactNode } from 'react';
import { Brand, Footer, TopBarActions } from '../shell/AppShell.tsx';

/** /login, /register, /forget: the navigation bar over a centred card. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  return (
    <div className="auth-layout">
      <header className="topbar auth-topbar">
        <Brand />
        <div className="topbar-spacer" />
        <TopBarActions />
      </header>
      <main id="main" className="auth-main">
        <div className="auth-card">
          <h1 className="auth-title">{title}</h1>
          <p className="auth-subtitle">{subtitle}</p>
          {children}
        </div>
      </main>
      <Footer />
    </div>
  );
}
