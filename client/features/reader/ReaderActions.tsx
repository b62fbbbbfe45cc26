import { DropdownMenu } from 'radix-ui';
import { type ReactNode, type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NoteDetail } from '../../../src/schemas/notes.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { copyText } from '../../lib/clipboard.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPCClient } from '../../trpc.ts';
import { downloadFile } from './download.ts';
import { readerPath } from './reader-links.ts';
import { readerView, useReaderView } from './reader-view.ts';
import { TypographyPanel } from './TypographyPanel.tsx';

const EXPORTS = [
  { what: 'article', format: 'text', labelKey: 'reader.exportText' },
  { what: 'article', format: 'markdown', labelKey: 'reader.exportMarkdown' },
  { what: 'highlights', format: 'markdown', labelKey: 'highlights.exportMarkdown' },
  { what: 'highlights', format: 'text', labelKey: 'highlights.exportText' },
] as const;
type ExportChoice = (typeof EXPORTS)[number];

const exportTestId = (choice: ExportChoice) =>
  choice.what === 'article' ? `export-${choice.format}` : `export-highlights-${choice.format}`;

/**
 * True while the bar's buttons, each with its label, do not fit its width: the less-used ones
 * then move into the "More" menu. The width they needed is kept, so they come back only when
 * there is room for them again (a wider window, a shorter language: the buttons are watched too).
 */
function useCompactBar(bar: RefObject<HTMLElement | null>) {
  const [compact, setCompact] = useState(false);
  const needed = useRef(0);
  useLayoutEffect(() => {
    const element = bar.current;
    if (!element) return;
    const check = () => {
      if (!compact && element.scrollWidth > element.clientWidth + 1) {
        needed.current = element.scrollWidth;
        setCompact(true);
      } else if (compact && element.clientWidth >= needed.current) setCompact(false);
    };
    const observer = new ResizeObserver(check);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    check();
    return () => observer.disconnect();
  }, [bar, compact]);
  return compact;
}

/**
 * The reader's action bar (after `children`, the highlights drawer): open the original, copy the
 * product link, export the article or its highlights, the typography panel, focus mode, and a
 * "More" menu with the shortcut sheet, which also takes the first three where the bar is narrow.
 */
export function ReaderActions({ note, children }: { note: NoteDetail; children: ReactNode }) {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const bar = useRef<HTMLDivElement>(null);
  const compact = useCompactBar(bar);
  const { focus } = useReaderView();
  const productLink = `${window.location.origin}${readerPath(note.id)}`;

  async function exportAs({ what, format }: ExportChoice) {
    try {
      const file =
        what === 'article'
          ? await client.notes.export.query({ id: note.id, format })
          : await client.highlights.export.query({ noteId: note.id, format });
      downloadFile(file.filename, file.mimeType, file.content);
    } catch (error) {
      notify.error(error);
    }
  }

  async function copyLink() {
    try {
      await copyText(productLink);
      notify.success('toast.copySuccess');
    } catch (error) {
      notify.error(error, 'toast.operationFailed');
    }
  }

  const exportItems = EXPORTS.map((choice) => (
    <DropdownMenu.Item
      key={exportTestId(choice)}
      className="menu-item reader-menu-item"
      data-testid={exportTestId(choice)}
      onSelect={() => void exportAs(choice)}
    >
      {t(choice.labelKey)}
    </DropdownMenu.Item>
  ));

  return (
    <div
      ref={bar}
      className="reader-actions"
      data-compact={compact || undefined}
      data-testid="reader-actions"
    >
      {children}
      {!compact && (
        <>
          <a
            className="button"
            href={note.url}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="reader-original"
          >
            <Icon name="globe" />
            {t('reader.openOriginal')}
          </a>
          <button
            type="button"
            className="button"
            onClick={copyLink}
            data-testid="reader-copy-link"
            data-link={productLink}
            title={productLink}
          >
            {t('reader.copyLink')}
          </button>
          <DropdownMenu.Root>
            <DropdownMenu.Trigger className="button" data-testid="reader-export">
              {t('reader.export')}
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
                {exportItems}
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        </>
      )}
      <TypographyPanel lang={note.lang} />
      <button
        type="button"
        className="button reader-icon-button"
        aria-pressed={focus}
        aria-label={t('readerTools.focusMode')}
        title={`${t('readerTools.focusMode')} (F)`}
        data-testid="reader-focus"
        onClick={readerView.toggleFocus}
      >
        <Icon name="focus" />
      </button>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          className="button reader-icon-button"
          aria-label={t('highlights.more')}
          title={t('highlights.more')}
          data-testid="reader-more"
        >
          <Icon name="more" strokeWidth={3} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu reader-more-menu" align="end" sideOffset={6}>
            {compact && (
              <>
                <DropdownMenu.Item asChild className="menu-item reader-menu-item">
                  <a href={note.url} target="_blank" rel="noopener noreferrer" data-testid="reader-original">
                    {t('reader.openOriginal')}
                  </a>
                </DropdownMenu.Item>
                <DropdownMenu.Item
                  className="menu-item reader-menu-item"
                  data-testid="reader-copy-link"
                  data-link={productLink}
                  onSelect={() => void copyLink()}
                >
                  {t('reader.copyLink')}
                </DropdownMenu.Item>
                <DropdownMenu.Separator className="menu-separator" />
                <DropdownMenu.Group>
                  <DropdownMenu.Label className="menu-label">{t('reader.export')}</DropdownMenu.Label>
                  {exportItems}
                </DropdownMenu.Group>
                <DropdownMenu.Separator className="menu-separator" />
              </>
            )}
            <DropdownMenu.Item
              className="menu-item reader-menu-item"
              data-testid="reader-shortcuts"
              onSelect={() => readerView.setShortcuts(true)}
            >
              {t('readerTools.shortcutsTitle')}
              <kbd className="reader-menu-kbd">?</kbd>
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}
