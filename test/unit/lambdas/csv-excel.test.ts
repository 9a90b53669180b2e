/**
 * The CSV writer's Excel-friendly dialect (docs/api.md#csv): Spanish Excel splits columns on `;` and reads
 * `95,31` as a number; the standard dialect stays RFC 4180. `convertCsv` rewrites a standard download (the
 * API's audit CSV) in that dialect without changing a cell.
 */
import { describe, expect, it } from 'vitest';
import { convertCsv, CSV_STANDARD, csvText, excelCsvDialect, parseCsv } from '../../../lambdas/contract/csv.js';

const ES = excelCsvDialect('es');

describe('Excel dialect', () => {
  it('is ; and decimal comma for Spanish, the standard comma and point for English', () => {
    expect(ES).toEqual({ separator: ';', decimalMark: ',' });
    expect(excelCsvDialect('es-ES')).toEqual(ES);
    expect(excelCsvDialect('en')).toEqual(CSV_STANDARD);
  });

  it('writes numbers with a decimal comma, quotes cells holding ; and keeps neutralising formulas', () => {
    const rows = [
      ['Dispositivo', 'Disponibilidad (%)', 'Veces'],
      ['FW; sede', 95.31, 3],
      ['=cmd', -1.5, null],
      ['coma, sin comillas', 100, 0],
    ];
    expect(csvText(rows, { dialect: ES })).toBe('Dispositivo;Disponibilidad (%);Veces\r\n"FW; sede";95,31;3\r\n\'=cmd;-1,5;\r\ncoma, sin comillas;100;0');
    // the standard dialect is unchanged
    expect(csvText(rows)).toBe('Dispositivo,Disponibilidad (%),Veces\r\nFW; sede,95.31,3\r\n\'=cmd,-1.5,\r\n"coma, sin comillas",100,0');
  });
});

describe('convertCsv', () => {
  it('rewrites a standard CSV in the Excel dialect, cell for cell (text that only looks numeric stays text)', () => {
    const standard = '\uFEFFat,actor,ip,pct,code\r\n2026-03-01T10:00:00.000Z,"soc, turno ""noche""",203.0.113.9,99.5,007\r\n2026-03-02T00:00:00.000Z,"línea\r\nnueva",,1.50,-3\r\n';
    expect(parseCsv(standard)).toEqual([
      ['at', 'actor', 'ip', 'pct', 'code'],
      ['2026-03-01T10:00:00.000Z', 'soc, turno "noche"', '203.0.113.9', 99.5, '007'],
      ['2026-03-02T00:00:00.000Z', 'línea\r\nnueva', '', '1.50', -3],
    ]);
    expect(convertCsv(standard, ES)).toBe(
      'at;actor;ip;pct;code\r\n2026-03-01T10:00:00.000Z;"soc, turno ""noche""";203.0.113.9;99,5;007\r\n2026-03-02T00:00:00.000Z;"línea\r\nnueva";;1.50;-3\r\n',
    );
    // and back: the standard dialect gives the original text (without the BOM)
    expect(convertCsv(convertCsv(standard, CSV_STANDARD), CSV_STANDARD)).toBe(standard.slice(1));
  });
});
