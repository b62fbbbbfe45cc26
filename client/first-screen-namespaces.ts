/**
 * The namespaces of the words the shell and the home list show before anything is opened: these
 * come with the first load (English in the entry, another language in one chunk of its own).
 * Every other namespace loads with the screen that shows it (screen-words.ts). The build
 * (vite-chunks.ts) cuts each language's first-screen chunk to these.
 */
export const FIRST_SCREEN_NAMESPACES = [
  'app',
  'nav',
  'theme',
  'language',
  'footer',
  'home',
  'notes',
  'toast',
  'common',
  'clip',
] as const;
