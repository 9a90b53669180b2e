/**
 * CSV export of tables: the incident list, reports and analytics (docs/portal.md#csv-downloads).
 *
 * The cells are written by the project's one CSV writer, shared with the API's report downloads
 * (`lambdas/contract/csv.ts` through the contract door): RFC 4180 (comma separator, CRLF line ends, fields
 * quoted when they hold `"`, `,`, CR or LF), and text cells that start like a spreadsheet formula (`=`, `+`,
 * `-`, `@`, tab, CR, NUL or the full-width `＝＋－＠`) prefixed with `'` (OWASP "CSV injection") so a
 * spreadsheet never evaluates text typed by a user (e.g. an incident title). A UTF-8 BOM is prepended by
 * `downloadCsv` so Excel opens accents correctly. Every export is offered twice (`CsvButtons`): standard,
 * and "CSV (Excel)" in the dialect of the portal's language (Spanish: `;` separator, decimal comma).
 */
import { convertCsv, csvField, csvText, CSV_STANDARD, excelCsvDialect, UTF8_BOM, type CsvDialect } from '../lib/contract';

export { convertCsv, csvField, CSV_STANDARD, type CsvDialect };

/**
 * The two downloads every export offers (docs/portal.md#csv-downloads): `standard` (RFC 4180, comma,
 * decimal point) and `excel`, the dialect a spreadsheet set to the portal's language opens directly
 * (Spanish: `;` separator and decimal comma).
 */
export type CsvVariant = 'standard' | 'excel';

/** The portal's language as set on `<html lang>` by the settings (`es` when unset). Browser only. */
function portalLanguage(): string {
  return (typeof document !== 'undefined' && document.documentElement.lang) || 'es';
}

/** The dialect of `variant` for `language` (default: the portal's current language). */
export function csvDialect(variant: CsvVariant, language: string = portalLanguage()): CsvDialect {
  return variant === 'excel' ? excelCsvDialect(language) : CSV_STANDARD;
}

/** `<base>.csv`, or `<base>-excel.csv` for the Excel variant (so both can sit in one folder). */
export function csvFilename(base: string, variant: CsvVariant): string {
  return `${base}${variant === 'excel' ? '-excel' : ''}.csv`;
}

/** One column: header text and how to read the cell from a row (null/undefined → empty cell). */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

/** Rows → CSV text in `dialect` (default standard; header line first, CRLF-separated, no trailing newline). */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[], dialect: CsvDialect = CSV_STANDARD): string {
  return csvText([columns.map((c) => c.header), ...rows.map((row) => columns.map((c) => c.value(row)))], { dialect });
}

/** Offers `blob` to the user as the download `filename` (a temporary object URL on a clicked link). Browser only. */
export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Offers `csv` to the user as the download `filename` (UTF-8 with BOM, `text/csv`). Browser only. */
export function downloadCsv(filename: string, csv: string): void {
  downloadBlob(filename, new Blob([UTF8_BOM, csv], { type: 'text/csv;charset=utf-8' }));
}
