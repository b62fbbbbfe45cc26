/** What a highlight quotes: its image when it has one, otherwise its text. */
export function HighlightQuote({
  imageUrl,
  text,
  textClassName,
}: {
  imageUrl: string | null | undefined;
  text: string;
  textClassName: string;
}) {
  return imageUrl ? (
    <img className="highlight-quote-image" src={imageUrl} alt="" loading="lazy" />
  ) : (
    <span className={textClassName}>{text}</span>
  );
}
