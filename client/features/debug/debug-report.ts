/** One fact of the debug page: its label and value as shown, and as copied. */
export interface ReportRow {
  id: string;
  label: string;
  value: string;
  /** Codes, versions, user agents: left to right in every language. */
  ltr?: boolean;
  /** A health check's outcome, shown with a coloured dot. */
  state?: 'ok' | 'failing';
}

export interface ReportSection {
  id: string;
  title: string;
  rows: ReportRow[];
}

/** The report as plain text: a title line, then each section's facts as "label: value". */
export function reportText(title: string, sections: readonly ReportSection[]): string {
  const blocks = sections.map((section) =>
    [`[${section.title}]`, ...section.rows.map((row) => `${row.label}: ${row.value}`)].join('\n'),
  );
  return `${[title, ...blocks].join('\n\n')}\n`;
}

/** Whether this page may keep data in localStorage (private modes and policies can refuse it). */
export function localStorageAvailable(): boolean {
  try {
    const probe = 'margin.debug-probe';
    localStorage.setItem(probe, '1');
    localStorage.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}
