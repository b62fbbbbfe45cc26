import { useTranslation } from 'react-i18next';
import { ShownOnce } from '../../components/ShownOnce.tsx';

const TEST_IDS = { box: 'webhook-secret', value: 'webhook-secret-value', copy: 'copy-secret' };

/** The signing secret, shown this once. */
export function NewSecret({ secret, onDone }: { secret: string; onDone(): void }) {
  const { t } = useTranslation();
  return (
    <ShownOnce
      title={t('webhooks.secretTitle')}
      warning={t('webhooks.secretWarning')}
      value={secret}
      testIds={TEST_IDS}
      onDone={onDone}
    />
  );
}
