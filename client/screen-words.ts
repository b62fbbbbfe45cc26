import type { LaterNamespace } from './locale-chunks.ts';

/**
 * The one list of the words each part loaded on demand shows beyond the first screen's
 * (first-screen-namespaces.ts): its code and these namespaces, in the app's language, load
 * together (`withTranslations`), so its first render has them. A part drawn inside another gets
 * the other's words as well (a settings screen those of the settings page). Browser test:
 * test/e2e/route-translations.test.ts opens the pages in other languages and fails on a raw key.
 */
export const SCREEN_WORDS = {
  // Pages (routes.tsx).
  daily: ['daily', 'highlights', 'errors'],
  login: ['auth', 'qr', 'errors'],
  // Their other-login panel shows the QR code.
  register: ['auth', 'qr', 'errors'],
  forget: ['auth', 'qr', 'errors'],
  qrLogin: ['auth', 'qr', 'errors', 'notFound'],
  deviceConfirm: ['sync', 'errors', 'notFound'],
  notFound: ['notFound'],
  // What the settings screens share: the page's menu, the account, plans, colours.
  settings: ['settings', 'account', 'auth', 'membership', 'colorTheme', 'highlights', 'errors'],
  // A colour the user chose is named by its number (colorTheme.slotName).
  highlightList: ['highlights', 'reader', 'daily', 'errors', 'colorTheme'],
  reader: ['reader', 'readerTools', 'highlights', 'daily', 'errors', 'colorTheme'],

  // Settings screens (SettingsPage.tsx), beside the settings page's words.
  syncTokenSettings: ['sync'],
  openApiSettings: ['openapi', 'webhooks', 'sync'],
  extensionSettings: ['extSettings'],
  pluginsSettings: ['plugins', 'rateUs'],
  debugInfoSettings: ['debugInfo', 'feedback'],
  guideSettings: ['guide'],
  changelogSettings: ['changelog'],
  feedbackSettings: ['feedback'],
  rateUsSettings: ['rateUs'],
  integrationSettings: ['sync'],

  // Parts of the home route's shell and list loaded when first wanted.
  accountMenu: ['auth'],
  tagSection: ['errors'],
  folderSection: ['errors'],
  extensionBanner: ['banner', 'errors'],
  noteDialogs: ['errors'],
  highlightLink: ['highlights', 'errors'],
  recentDailyNotes: ['daily'],
  listShortcuts: ['listKeys'],
  // The save box's queue and its errors.
  saveQueue: ['errors'],
  // A refusal's toast, which may offer Upgrade.
  errorToast: ['errors', 'membership'],
} as const satisfies Record<string, readonly LaterNamespace[]>;

export type Screen = keyof typeof SCREEN_WORDS;
