import { useTranslation } from 'react-i18next';
import { copyText } from '../lib/clipboard.ts';
import { notify } from '../lib/notify.ts';

/** Copies `text` to the clipboard, with a toast saying it worked (or why not). */
export function CopyButton({ text, label, testId }: { text: string; label?: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="button button-small"
      data-testid={testId}
      onClick={() =>
        copyText(text).then(
          () => notify.success('toast.copySuccess'),
          (error: unknown) => notify.error(error, 'toast.operationFailed'),
        )
      }
    >
      {label ?? t('common.copy')}
    </button>
  );
}
