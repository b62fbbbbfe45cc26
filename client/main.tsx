import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { legacyHashPath } from '../src/deep-link.ts';
import { App } from './App.tsx';
import { initTheme } from './features/theme/theme-store.ts';
import { initI18n } from './i18n.ts';
import { escapeFrames } from './lib/frame-guard.ts';
import { linkManifest } from './lib/manifest.ts';
import './styles/app.css';

async function start(): Promise<void> {
  if (!escapeFrames()) return;
  const legacy = legacyHashPath(window.location.hash);
  if (legacy) window.history.replaceState(null, '', legacy);
  initTheme();
  linkManifest(__BUILD_VERSION__);
  await initI18n();
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
