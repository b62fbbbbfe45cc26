import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { storedImageSrc } from '../../../src/rules/stored-image.ts';

/**
 * What a highlight quotes: its image (Margin's stored copy) when it has one, otherwise its text.
 * An image Margin could not store says so instead of showing a broken picture.
 */
export function HighlightQuote({
  imageUrl,
  text,
  textClassName,
}: {
  imageUrl: string | null | undefined;
  text: string;
  textClassName: string;
}) {
  const { t } = useTranslation();
  const [missing, setMissing] = useState(false);
  if (!imageUrl) return <span className={textClassName}>{text}</span>;
  if (missing)
    return (
      <span className={`${textClassName} highlight-quote-missing`}>{t('highlights.imageUnavailable')}</span>
    );
  return (
    <img
      className="highlight-quote-image"
      src={storedImageSrc(imageUrl)}
      alt=""
      loading="lazy"
      decoding="async"
      onError={() => setMissing(true)}
    />
  );
}
