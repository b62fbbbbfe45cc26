import { useTranslation } from 'react-i18next';
import { Theme } from '../../../src/enums.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { THEME_CYCLE, THEME_LABEL_KEYS } from './theme-store.ts';
import { useThemeChoice } from './use-theme-choice.ts';

const ICON = { [Theme.light]: 'sun', [Theme.dark]: 'moon', [Theme.system]: 'monitor' } as const;

/** Cycles light → dark → follow system. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const [theme, setTheme] = useThemeChoice();
  const next = THEME_CYCLE[(THEME_CYCLE.indexOf(theme) + 1) % THEME_CYCLE.length] ?? Theme.system;
  return (
    <button
      type="button"
      className="icon-button"
      data-testid="theme-toggle"
      data-theme-choice={theme}
      aria-label={`${t('theme.toggle')}: ${t(THEME_LABEL_KEYS[theme])}`}
      title={`${t('theme.label')}: ${t(THEME_LABEL_KEYS[theme])}`}
      onClick={() => setTheme(next)}
    >
      <Icon name={ICON[theme]} />
    </button>
  );
}
