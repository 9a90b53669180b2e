/**
 * CSV export of tables: the incident list, reports and analytics (docs/portal.md#csv-downloads).
 *
 * The cells are written by the project's one CSV writer, shared with the API's report downloads
 * (`lambdas/contract/csv.ts` through the contract door): RFC 4180 (comma separator, CRLF line ends, fields
 * quoted when they hold `"`, `,`, CR or LF), and text cells that start like a spreadsheet formula (`=`, `+`,
 * `-`, `@`, tab, CR, NUL or the full-width `＝＋－＠`) prefixed with `'` (OWASP "CSV injection") so a
 * spreadsheet never evaluates text typed by a user (e.g. an incident title). A UTF-8 BOM is prepended by
 * `downloadCsv` so Excel opens accents correctly.
 */
import { csvField, csvText } from '../lib/contract';

export { csvField };

/** One column: header text and how to read the cell from a row (null/undefined → empty cell). */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

/** Rows → CSV text (header line first, CRLF-separated, no trailing newline). */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  return csvText([columns.map((c) => c.header), ...rows.map((row) => columns.map((c) => c.value(row)))]);
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
