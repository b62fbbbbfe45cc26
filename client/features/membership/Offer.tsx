import { useTranslation } from 'react-i18next';
import { regionConfig } from '../../../src/regions.ts';
import type { MembershipOverview, PaymentProviderId, Product } from '../../../src/schemas/membership.ts';
import { formatMoney } from './money.ts';
import { PLAN_NAME_KEY } from './plan-names.ts';
import { hasPro } from './use-membership-on.ts';
import { usePayment } from './use-payment.tsx';

const DAYS_PER_MONTH = 365.25 / 12;

/** The product whose day costs least, marked "Best value" when there is a choice. */
function bestValue(products: readonly Product[]): string | null {
  if (products.length < 2) return null;
  const perDay = (p: Product) => p.amount / p.days;
  return products.reduce((best, p) => (perDay(p) < perDay(best) ? p : best)).id;
}

function ProductCard(props: {
  product: Product;
  overview: MembershipOverview;
  best: boolean;
  payment: ReturnType<typeof usePayment>;
}) {
  const { t, i18n } = useTranslation();
  const { product, overview, payment } = props;
  const price = formatMoney(product.amount, overview.currency, i18n.language);
  const monthly = formatMoney(
    Math.round((product.amount / product.days) * DAYS_PER_MONTH),
    overview.currency,
    i18n.language,
  );
  const titleId = `product-${product.id}`;
  const busy = payment.pending !== null;
  return (
    <li
      className="product"
      data-tier={product.tier}
      data-best={props.best || undefined}
      data-testid="product"
      data-product={product.id}
      aria-labelledby={titleId}
    >
      <div className="product-head">
        <h3 id={titleId} className="product-tier">
          {t(PLAN_NAME_KEY[product.tier])}
        </h3>
        {props.best && <span className="product-best">{t('membership.bestValue')}</span>}
      </div>
      <p className="product-price" data-testid="product-price">
        {price}
      </p>
      <p className="product-days">
        {t('membership.productDays', { count: product.days })}
        {product.days > DAYS_PER_MONTH * 1.5 && (
          <span className="product-monthly">{t('membership.perMonth', { price: monthly })}</span>
        )}
      </p>
      {overview.providers.length > 0 && (
        <div className="product-buy">
          {overview.providers.map((provider: PaymentProviderId, index) => {
            const mine = payment.pending?.productId === product.id && payment.pending.provider === provider;
            return (
              <button
                key={provider}
                type="button"
                className={`button button-block${index === 0 ? ' button-primary' : ''}`}
                data-provider={provider}
                disabled={busy}
                aria-busy={mine || undefined}
                onClick={() => payment.buy(product.id, provider)}
              >
                {mine ? t('membership.opening') : t(`membership.payWith.${provider}`)}
              </button>
            );
          })}
        </div>
      )}
    </li>
  );
}

/** The region's products as cards, each with a button for every configured payment provider. */
export function Offer({ overview }: { overview: MembershipOverview }) {
  const { t } = useTranslation();
  const payment = usePayment();
  const best = bestValue(overview.products.filter((p) => p.tier === 'pro'));
  const title = hasPro(overview.state) ? t('membership.extendTitle') : t('membership.chooseTitle');
  return (
    <section className="settings-section offer" aria-labelledby="offer-title" data-testid="offer">
      <div className="offer-head">
        <h2 id="offer-title" className="section-title">
          {title}
        </h2>
        <p className="muted">{t('membership.daysAddUp')}</p>
      </div>
      {overview.providers.length === 0 && (
        <p className="notice" data-testid="payment-off">
          {t('membership.paymentOff')}
        </p>
      )}
      <ul className="products">
        {overview.products.map((product) => (
          <ProductCard
            key={product.id}
            product={product}
            overview={overview}
            best={product.id === best}
            payment={payment}
          />
        ))}
      </ul>
      {overview.providers.length > 0 && (
        // Mainland China pays by scanning a code; elsewhere on the provider's checkout page.
        <p className="pay-note" data-testid="pay-note">
          {t(`membership.payNote.${regionConfig(overview.region).membershipPage}`)}
        </p>
      )}
      {payment.dialog}
    </section>
  );
}
