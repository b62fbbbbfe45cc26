// Icons only the notes list uses; same 24-unit stroke style as components/icons/Icon.tsx.
const PATHS = {
  article: 'M4 5h16M4 9h10M4 14h16M4 18h10',
  card: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  list: 'M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01',
  plus: 'M12 5v14M5 12h14',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  chevron: 'M9 6l6 6-6 6',
  restore: 'M4 10a8 8 0 1 1 2 7M4 4v6h6',
  queued: 'M7 3h10M7 21h10M8 3c0 5 8 5 8 9s-8 4-8 9M16 3c0 5-8 5-8 9s8 4 8 9',
  failed: 'M12 8v5M12 16.5h.01M10.3 4L2.6 18a2 2 0 0 0 1.7 3h15.4a2 2 0 0 0 1.7-3L13.7 4a2 2 0 0 0-3.4 0z',
} as const;

type NotesIconName = keyof typeof PATHS;

export function NotesIcon({ name, size = 18 }: { name: NotesIconName; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={name === 'more' ? 3 : 1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={name === 'chevron' ? 'icon-chevron' : undefined}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
