/**
 * CSV export of tables: the incident list, reports and analytics (docs/portal.md#csv-downloads).
 *
 * Format: RFC 4180 — comma separator, CRLF line ends, fields quoted when they hold `"`, `,`, CR or LF
 * (inner quotes doubled). A UTF-8 BOM is prepended by `downloadCsv` so Excel opens accents correctly.
 * Cells that start with `=`, `+`, `-`, `@`, tab or CR are prefixed with `'` (OWASP "CSV injection") so a
 * spreadsheet never evaluates text typed by a user (e.g. an incident title) as a formula.
 */

/** One column: header text and how to read the cell from a row (null/undefined → empty cell). */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: neutralises formulas, then quotes if needed. */
export function csvField(raw: string | number | null | undefined): string {
  if (raw === null || raw === undefined) return '';
  let s = String(raw);
  if (typeof raw === 'string' && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows → CSV text (header line first, CRLF-separated, no trailing newline). */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const lines = [columns.map((c) => csvField(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvField(c.value(row))).join(','));
  return lines.join('\r\n');
}

/** Offers `csv` to the user as the download `filename` (UTF-8 with BOM, `text/csv`). Browser only. */
export function downloadCsv(filename: string, csv: string): void {
  const blob = new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
