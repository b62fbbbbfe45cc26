import { DropdownMenu } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import type { NoteDetail } from '../../../src/schemas/notes.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { copyText } from '../../lib/clipboard.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPCClient } from '../../trpc.ts';
import { downloadFile } from './download.ts';
import { readerPath } from './reader-links.ts';

const EXPORTS = [
  { what: 'article', format: 'text', labelKey: 'reader.exportText' },
  { what: 'article', format: 'markdown', labelKey: 'reader.exportMarkdown' },
  { what: 'highlights', format: 'markdown', labelKey: 'highlights.exportMarkdown' },
  { what: 'highlights', format: 'text', labelKey: 'highlights.exportText' },
] as const;
type ExportChoice = (typeof EXPORTS)[number];

/** Open the original, copy the product link, export the article or its highlights as plain text or Markdown. */
export function ReaderActions({ note }: { note: NoteDetail }) {
  const { t } = useTranslation();
  const client = useTRPCClient();
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

  return (
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
            {EXPORTS.map((choice) => (
              <DropdownMenu.Item
                key={`${choice.what}-${choice.format}`}
                className="menu-item reader-menu-item"
                data-testid={
                  choice.what === 'article' ? `export-${choice.format}` : `export-highlights-${choice.format}`
                }
                onSelect={() => void exportAs(choice)}
              >
                {t(choice.labelKey)}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </>
  );
}
