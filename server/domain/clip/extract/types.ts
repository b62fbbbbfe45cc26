export type ExtractedArticle = {
  title: string | null;
  siteName: string | null;
  author: string | null;
  publishedAt: Date | null;
  leadImageUrl: string | null;
  /** Article body HTML with absolute URLs; not sanitised (see ../sanitize.ts). */
  contentHtml: string;
  /** Plain text of the body, paragraphs separated by blank lines. */
  text: string;
  /** At most 300 characters. */
  excerpt: string;
  lang: string | null;
  wordCount: number;
};
