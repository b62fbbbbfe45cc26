import { DropdownMenu } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notify.ts';
import { useTRPCClient } from '../../trpc.ts';
import { downloadFile } from '../reader/download.ts';

const FORMATS = [
  { format: 'markdown', labelKey: 'daily.exportMarkdown' },
  { format: 'text', labelKey: 'daily.exportText' },
] as const;

/** Downloads one day's note (with its extra entries) as Markdown or plain text. */
export function DailyExport({ date }: { date: string }) {
  const { t } = useTranslation();
  const client = useTRPCClient();

  async function exportAs(format: 'markdown' | 'text') {
    try {
      const file = await client.daily.export.query({ date, format });
      downloadFile(file.filename, file.mimeType, file.content);
    } catch (error) {
      notify.error(error);
    }
  }

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="button button-small" data-testid="daily-export">
        {t('daily.export')}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
          {FORMATS.map(({ format, labelKey }) => (
            <DropdownMenu.Item
              key={format}
              className="menu-item"
              data-testid={`daily-export-${format}`}
              onSelect={() => void exportAs(format)}
            >
              {t(labelKey)}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
