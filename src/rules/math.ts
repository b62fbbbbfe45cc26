import katex from 'katex';

/** KaTeX's parse errors mapped to our translated messages. */
const KNOWN_ERRORS: [RegExp, string][] = [
  [/Invalid size/i, 'errors.mathInvalidSize'],
  [/Invalid colou?r/i, 'errors.mathInvalidColor'],
  [/Undefined control sequence/i, 'errors.mathUndefinedControl'],
  [/Double superscript/i, 'errors.mathDoubleSuperscript'],
  [/Double subscript/i, 'errors.mathDoubleSubscript'],
];

export interface MathSegment {
  tex: string;
  display: boolean;
}

/** `$$…$$` (display) and `$…$` (inline) segments of Markdown text; `\$` is a literal dollar. */
export function mathSegments(markdown: string): MathSegment[] {
  const segments: MathSegment[] = [];
  const pattern = /(?<!\\)\$\$([\s\S]+?)(?<!\\)\$\$|(?<![\\$])\$(?!\s)([^$\n]+?)(?<![\s\\])\$(?!\$)/g;
  for (const match of markdown.matchAll(pattern)) {
    if (match[1] !== undefined) segments.push({ tex: match[1], display: true });
    else if (match[2] !== undefined) segments.push({ tex: match[2], display: false });
  }
  return segments;
}

export interface MathError {
  messageKey: string;
  /** KaTeX's own words, for the details line. */
  detail: string;
  tex: string;
}

/** The first formula KaTeX refuses, or null when every formula typesets. */
export function findMathError(markdown: string): MathError | null {
  for (const segment of mathSegments(markdown)) {
    try {
      katex.renderToString(segment.tex, {
        throwOnError: true,
        displayMode: segment.display,
        strict: 'ignore',
        trust: false,
      });
    } catch (error) {
      const detail =
        error instanceof Error ? error.message.replace(/^KaTeX parse error: /, '') : String(error);
      const messageKey = KNOWN_ERRORS.find(([pattern]) => pattern.test(detail))?.[1] ?? 'errors.mathInvalid';
      return { messageKey, detail, tex: segment.tex };
    }
  }
  return null;
}
