import { useTranslation } from 'react-i18next';
import { ExtensionMarket } from '../../../src/enums.ts';

/** The stores in the order the page lists them; Safari last, as this project ships no Safari build. */
const MARKETS = [
  ExtensionMarket.chrome,
  ExtensionMarket.edge,
  ExtensionMarket.firefox,
  ExtensionMarket.safari,
];

/** Safari's extension is not built from this project, so it has no listing to rate. */
const UNAVAILABLE: ReadonlySet<ExtensionMarket> = new Set([ExtensionMarket.safari]);

const LETTER: Record<ExtensionMarket, string> = { chrome: 'C', edge: 'E', firefox: 'F', safari: 'S' };

/** A same-site link is the deployment's own download page (mainland China), not a store listing. */
const isDownloadPage = (href: string) => href.startsWith('/');

/**
 * One row per browser: its store and a link to rate the extension there (or to download it, where
 * the region links to a mirror), the user's own browser marked.
 */
export function StoreList({
  links,
  current,
}: {
  links: Readonly<Record<ExtensionMarket, string>>;
  current: ExtensionMarket | null;
}) {
  const { t } = useTranslation();
  return (
    <ul className="store-list" data-testid="store-list">
      {MARKETS.map((market) => {
        const href = links[market];
        const unavailable = UNAVAILABLE.has(market);
        const mine = market === current;
        const browser = t(`rateUs.browser.${market}`);
        return (
          <li
            key={market}
            className="store"
            data-market={market}
            data-current={mine ? true : undefined}
            data-testid={`store-${market}`}
          >
            <span className={`store-mark store-mark-${market}`} aria-hidden="true">
              {LETTER[market]}
            </span>
            <div className="store-text">
              <div className="store-name">
                {browser}
                {mine && <span className="badge store-yours">{t('rateUs.yourBrowser')}</span>}
              </div>
              <div className="store-where muted">
                {unavailable ? t('rateUs.notAvailable') : t(`rateUs.store.${market}`)}
              </div>
            </div>
            {!unavailable && (
              <a
                className={`button button-small${mine ? ' button-primary' : ''}`}
                href={href}
                {...(isDownloadPage(href) ? {} : { target: '_blank', rel: 'noopener noreferrer' })}
                aria-label={
                  isDownloadPage(href)
                    ? t('rateUs.downloadFor', { browser })
                    : t('rateUs.rateOn', { store: t(`rateUs.store.${market}`) })
                }
              >
                {isDownloadPage(href) ? t('rateUs.download') : t('rateUs.rate')}
              </a>
            )}
          </li>
        );
      })}
    </ul>
  );
}
