/**
 * The one CSV writer of the project, used by the API's report downloads (`lambdas/domain/reports.ts`) and by
 * the portal's table exports (`web/src/shared/ui/csv.ts`, through the portal's contract door).
 *
 * Format: RFC 4180 — comma separator, CRLF line ends, a field quoted when it holds `"`, `,`, CR or LF
 * (inner quotes doubled). Numbers and booleans are written as they are.
 *
 * CSV injection (OWASP "CSV Injection"): a text cell that starts with `=`, `+`, `-`, `@`, tab (0x09), CR
 * (0x0D) or NUL (0x00), or with the full-width forms `＝` `＋` `－` `＠` (U+FF1D, U+FF0B, U+FF0D, U+FF20, which
 * some spreadsheets normalise to their ASCII forms), is prefixed with `'` so a spreadsheet shows it as text
 * and never evaluates it as a formula. Rules: docs/api.md#csv.
 */

/** A cell value; `null`/`undefined` → empty cell. */
export type CsvCell = string | number | boolean | null | undefined;

/** First characters a spreadsheet may read as the start of a formula (see module doc). */
const FORMULA_START = /^[=+\-@\t\r\0\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Whether a text cell would be neutralised (starts like a formula). */
export function looksLikeFormula(s: string): boolean {
  return FORMULA_START.test(s);
}

/** One CSV field: text that starts like a formula is prefixed with `'`, then quoted if needed. */
export function csvField(v: CsvCell): string {
  if (v === null || v === undefined) return '';
  if (typeof v !== 'string') return String(v);
  const safe = FORMULA_START.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line (no line end). */
export function csvLine(cells: readonly CsvCell[]): string {
  return cells.map(csvField).join(',');
}

/** Rows → CSV text, lines joined with CRLF; `trailingNewline` ends the last line with CRLF too. */
export function csvText(rows: readonly (readonly CsvCell[])[], opts: { trailingNewline?: boolean } = {}): string {
  const text = rows.map(csvLine).join('\r\n');
  return opts.trailingNewline && rows.length > 0 ? `${text}\r\n` : text;
}
