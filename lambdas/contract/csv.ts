/**
 * The one CSV writer of the project, used by the API's report downloads (`lambdas/domain/reports.ts`) and by
 * the portal's table exports (`web/src/shared/ui/csv.ts`, through the portal's contract door).
 *
 * Format: RFC 4180 — comma separator, CRLF line ends, a field quoted when it holds `"`, `,`, CR or LF
 * (inner quotes doubled). Numbers and booleans are written as they are. The same writer also writes the
 * Excel-friendly dialect of a language (`CsvDialect`: Spanish `;` and decimal comma), and `convertCsv`
 * rewrites a standard CSV (an API download) in it.
 *
 * CSV injection (OWASP "CSV Injection"): a text cell that starts with `=`, `+`, `-`, `@`, tab (0x09), CR
 * (0x0D) or NUL (0x00), or with the full-width forms `＝` `＋` `－` `＠` (U+FF1D, U+FF0B, U+FF0D, U+FF20, which
 * some spreadsheets normalise to their ASCII forms), is prefixed with `'` so a spreadsheet shows it as text
 * and never evaluates it as a formula. Rules: docs/api.md#csv.
 */

/** A cell value; `null`/`undefined` → empty cell. */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * How a CSV file is written: the field separator and the decimal mark of numbers. Two dialects exist
 * (docs/api.md#csv):
 *  - `CSV_STANDARD`: RFC 4180, comma separator, decimal point — what the API's downloads send;
 *  - `excelCsvDialect(language)`: what a spreadsheet (Excel) set to that language opens directly, with
 *    columns split and numbers read as numbers: Spanish `;` and a decimal comma (`95,31`), as Excel
 *    expects where the decimal mark is a comma; English the standard comma and point.
 * Quoting, line ends and the neutralisation of formula-like text are the same in both.
 */
export interface CsvDialect {
  separator: ',' | ';';
  decimalMark: '.' | ',';
}

/** RFC 4180: comma separator, decimal point. */
export const CSV_STANDARD: CsvDialect = { separator: ',', decimalMark: '.' };

/** The Excel-friendly dialect of `language` (ISO 639-1; `es` → `;` and `,`, any other → `CSV_STANDARD`). */
export function excelCsvDialect(language: string): CsvDialect {
  return language.toLowerCase().startsWith('es') ? { separator: ';', decimalMark: ',' } : CSV_STANDARD;
}

/** The UTF-8 byte-order mark (U+FEFF) that makes Excel read a CSV file as UTF-8 (accents intact). */
export const UTF8_BOM = '\uFEFF';

/** First characters a spreadsheet may read as the start of a formula (see module doc). */
const FORMULA_START = /^[=+\-@\t\r\0\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Whether a text cell would be neutralised (starts like a formula). */
export function looksLikeFormula(s: string): boolean {
  return FORMULA_START.test(s);
}

/**
 * One CSV field: text that starts like a formula is prefixed with `'`, then quoted if it holds `"`, the
 * dialect's separator, CR or LF; a number is written with the dialect's decimal mark.
 */
export function csvField(v: CsvCell, dialect: CsvDialect = CSV_STANDARD): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return dialect.decimalMark === ',' ? String(v).replace('.', ',') : String(v);
  if (typeof v !== 'string') return String(v);
  const safe = FORMULA_START.test(v) ? `'${v}` : v;
  return safe.includes(dialect.separator) || /["\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line (no line end). */
export function csvLine(cells: readonly CsvCell[], dialect: CsvDialect = CSV_STANDARD): string {
  return cells.map((c) => csvField(c, dialect)).join(dialect.separator);
}

/**
 * Rows → CSV text, lines joined with CRLF; `trailingNewline` ends the last line with CRLF too; `dialect`
 * defaults to `CSV_STANDARD`. No byte-order mark: whoever writes the file adds `UTF8_BOM` if wanted.
 */
export function csvText(rows: readonly (readonly CsvCell[])[], opts: { trailingNewline?: boolean; dialect?: CsvDialect } = {}): string {
  const text = rows.map((r) => csvLine(r, opts.dialect)).join('\r\n');
  return opts.trailingNewline && rows.length > 0 ? `${text}\r\n` : text;
}

/**
 * Parses RFC 4180 text written by `csvText` with `CSV_STANDARD` (comma, `"` quoting, CRLF or LF lines; a
 * leading BOM is ignored) into rows of cells. An unquoted cell that is a number as the writer writes one
 * (`-12`, `95.31`: `String(Number(cell)) === cell`, so `007` or `1.50` stay text) comes back as a number,
 * every other cell as text (empty cells as `''`), so `csvText` can write the rows again in another dialect.
 * A trailing line end does not add an empty row.
 */
export function parseCsv(text: string): CsvCell[][] {
  const src = text.startsWith(UTF8_BOM) ? text.slice(1) : text;
  const rows: CsvCell[][] = [];
  let row: CsvCell[] = [];
  let i = 0;
  const n = src.length;
  if (n === 0) return rows;
  for (;;) {
    let cell: CsvCell;
    if (src[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = src.indexOf('"', i);
        if (q < 0) {
          value += src.slice(i);
          i = n;
          break;
        }
        value += src.slice(i, q);
        if (src[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      cell = value;
    } else {
      let j = i;
      while (j < n && src[j] !== ',' && src[j] !== '\r' && src[j] !== '\n') j++;
      const raw = src.slice(i, j);
      cell = /^-?\d+(\.\d+)?$/.test(raw) && String(Number(raw)) === raw ? Number(raw) : raw;
      i = j;
    }
    row.push(cell);
    if (i >= n) {
      rows.push(row);
      return rows;
    }
    if (src[i] === ',') {
      i++;
      continue;
    }
    // line end: CRLF or LF
    i += src[i] === '\r' && src[i + 1] === '\n' ? 2 : 1;
    rows.push(row);
    row = [];
    if (i >= n) return rows;
  }
}

/** `text` (standard CSV, e.g. an API download) rewritten in `dialect` (same cells, same line ends). */
export function convertCsv(text: string, dialect: CsvDialect): string {
  const trailing = /\r?\n$/.test(text);
  return csvText(parseCsv(text), { dialect, trailingNewline: trailing });
}
