import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A QR code drawn in the browser as SVG, as the QR login draws its own on the server (the qrcode
 * package, margin 1, level M). The package loads with the first code.
 */
export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const { t } = useTranslation();
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    setSvg(null);
    import('qrcode')
      .then((QRCode) => QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then(
        (drawn) => current && setSvg(drawn),
        () => current && setFailed(true),
      );
    return () => {
      current = false;
    };
  }, [text]);
  if (failed) return <p className="field-error">{t('errors.generic')}</p>;
  return svg ? (
    <img
      className="qr-image"
      src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`}
      alt={label}
      width={size}
      height={size}
      data-testid="pay-qr"
    />
  ) : (
    <span className="spinner" aria-hidden="true" />
  );
}
