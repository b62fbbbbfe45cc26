import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isLanguage, LANGUAGES } from '../../../src/constants.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { changeLanguage } from '../../i18n.ts';
import { useTRPC } from '../../trpc.ts';

/** A native select: accessible and keyboard-ready out of the box, and no menu code on first load. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: me } = useQuery(trpc.auth.me.queryOptions());
  // Signed in, the choice is stored on the account, which every session and the server's
  // messages follow; the cached account says so at once, so following it keeps this choice.
  const saveLanguage = useMutation(trpc.account.setLanguage.mutationOptions());
  return (
    <label className="language-select" title={t('language.label')}>
      <Icon name="globe" />
      <span className="visually-hidden">{t('language.label')}</span>
      <select
        data-testid="language-select"
        value={i18n.language}
        onChange={(event) => {
          const value = event.target.value;
          if (!isLanguage(value)) return;
          void changeLanguage(value);
          if (!me) return;
          queryClient.setQueryData(
            trpc.auth.me.queryKey(),
            (cached) => cached && { ...cached, language: value },
          );
          saveLanguage.mutate({ language: value });
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.nativeName}
          </option>
        ))}
      </select>
    </label>
  );
}
