/** Text forms of highlights: copying one, exporting a note's as Markdown or plain text. */
export interface FormattableHighlight {
  text: string;
  annotation: { message: string } | null;
  tags: readonly string[];
  imageUrl?: string | null;
}

export interface FormattableNote {
  title: string;
  url: string;
}

/** One highlight with its source link, for the clipboard. */
export function highlightCopyText(highlight: FormattableHighlight, note: FormattableNote): string {
  const annotation = highlight.annotation?.message ? `\n\n${highlight.annotation.message}` : '';
  return `“${highlight.text}”${annotation}\n\n— ${note.title} ${note.url}`;
}

const quoteLines = (text: string) =>
  text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

export function highlightsMarkdown(
  note: FormattableNote,
  highlights: readonly FormattableHighlight[],
): string {
  const blocks = highlights.map((h) => {
    const parts = [h.imageUrl ? `![](${h.imageUrl})` : quoteLines(h.text)];
    if (h.annotation?.message) parts.push(h.annotation.message);
    if (h.tags.length) parts.push(h.tags.map((t) => `#${t.replace(/\s+/g, '-')}`).join(' '));
    return parts.join('\n\n');
  });
  return `# ${note.title}\n\nSource: <${note.url}>\n\n${blocks.join('\n\n---\n\n')}\n`;
}

export function highlightsText(note: FormattableNote, highlights: readonly FormattableHighlight[]): string {
  const blocks = highlights.map((h) => {
    const lines = [h.imageUrl ?? h.text];
    if (h.annotation?.message) lines.push(`  — ${h.annotation.message}`);
    if (h.tags.length) lines.push(`  ${h.tags.map((t) => `#${t}`).join(' ')}`);
    return lines.join('\n');
  });
  return `${note.title}\n${note.url}\n\n${blocks.join('\n\n')}\n`;
}
