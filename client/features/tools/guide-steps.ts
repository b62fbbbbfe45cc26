/**
 * The getting-started guide: one step per thing a new reader does, each with a screenshot of the
 * app that `npm run guide:screenshots` (test/guide/capture-guide-screens.ts) takes and saves as
 * client/public/guide/<id>-<theme>.webp, served from /guide/.
 */
export const GUIDE_STEPS = [
  { id: 'save', href: '/' },
  { id: 'highlight', href: '/highlights' },
  { id: 'organise', href: '/' },
  { id: 'daily', href: '/daily' },
  { id: 'sync', href: '/personSetting/sync' },
  { id: 'extension', href: '/personSetting/rateus' },
] as const;

export type GuideStepId = (typeof GUIDE_STEPS)[number]['id'];

/** Every screenshot is the app's window at this size (CSS pixels), so the page can reserve its box. */
export const GUIDE_IMAGE_SIZE = { width: 1024, height: 640 } as const;

export const GUIDE_THEMES = ['light', 'dark'] as const;
export type GuideTheme = (typeof GUIDE_THEMES)[number];

/** Where a step's screenshot is served from, in the theme the app is shown in. */
export function guideImagePath(id: GuideStepId, theme: GuideTheme): string {
  return `/guide/${id}-${theme}.webp`;
}
