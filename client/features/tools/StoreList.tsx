import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ExtensionMarket } from '../../../src/enums.ts';

/** The stores in the order the pages list them; Safari last, as this project ships no Safari build. */
const MARKETS = [
  ExtensionMarket.chrome,
  ExtensionMarket.edge,
  ExtensionMarket.firefox,
  ExtensionMarket.safari,
];

const LETTER: Record<ExtensionMarket, string> = { chrome: 'C', edge: 'E', firefox: 'F', safari: 'S' };

/** A same-site link is the deployment's own download page (mainland China), not a store listing. */
const isDownloadPage = (href: string) => href.startsWith('/');

/** The browser's mark: its initial on its colour. */
export function StoreMark({ market }: { market: ExtensionMarket }) {
  return (
    <span className={`store-mark store-mark-${market}`} aria-hidden="true">
      {LETTER[market]}
    </span>
  );
}

/**
 * A row's link: to a store listing (`children`, read out as `label`), in a new tab; or, where the
 * region links the deployment's own download page instead, a download in this one.
 */
export function StoreLink({
  market,
  href,
  mine,
  label,
  children,
}: {
  market: ExtensionMarket;
  href: string;
  /** The user's own browser: its link is the one to follow. */
  mine: boolean;
  label: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const className = `button button-small${mine ? ' button-primary' : ''}`;
  if (isDownloadPage(href))
    return (
      <a
        className={className}
        href={href}
        aria-label={t('rateUs.downloadFor', { browser: t(`rateUs.browser.${market}`) })}
      >
        {t('rateUs.download')}
      </a>
    );
  return (
    <a className={className} href={href} target="_blank" rel="noopener noreferrer" aria-label={label}>
      {children}
    </a>
  );
}

/**
 * One row per browser: its mark and name, the user's own browser marked, a line about it and what
 * the page offers there (rate us: a rating; plugins: the install).
 */
export function StoreList({
  current,
  detail,
  action,
}: {
  current: ExtensionMarket | null;
  detail: (market: ExtensionMarket) => ReactNode;
  action: (market: ExtensionMarket, mine: boolean) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <ul className="store-list" data-testid="store-list">
      {MARKETS.map((market) => {
        const mine = market === current;
        return (
          <li
            key={market}
            className="store"
            data-market={market}
            data-current={mine ? true : undefined}
            data-testid={`store-${market}`}
          >
            <StoreMark market={market} />
            <div className="store-text">
              <div className="store-name">
                {t(`rateUs.browser.${market}`)}
                {mine && <span className="badge store-yours">{t('rateUs.yourBrowser')}</span>}
              </div>
              <div className="store-where muted">{detail(market)}</div>
            </div>
            {action(market, mine)}
          </li>
        );
      })}
    </ul>
  );
}
