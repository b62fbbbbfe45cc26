// What `use-sync-external-store/shim` gives packages written for React before 18 (react-i18next,
// wouter): React 19's own, without the shim's fallback code (vite-chunks.ts points the shim here).
export { useSyncExternalStore } from 'react';
