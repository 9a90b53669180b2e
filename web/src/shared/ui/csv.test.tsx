import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv';
import { readAllPages } from './useAllPages';
import { anIncident, fakeApi } from '../lib/test-utils';
import type { Incident, Page } from '../lib/contract';

describe('CSV export', () => {
  it('quotes separators, quotes and line breaks (RFC 4180) and uses CRLF', () => {
    const csv = toCsv(
      [
        { a: 'simple', b: 3 },
        { a: 'coma, "comillas"\ny salto', b: null },
      ],
      [
        { header: 'Texto', value: (r: { a: string; b: number | null }) => r.a },
        { header: 'Número', value: (r) => r.b },
      ],
    );
    expect(csv).toBe('Texto,Número\r\nsimple,3\r\n"coma, ""comillas""\ny salto",');
  });

  it('neutralises spreadsheet formulas typed by users (CSV injection)', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+34 600')).toBe("'+34 600");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField(-5)).toBe('-5');
    expect(csvField('Acceso -- normal')).toBe('Acceso -- normal');
  });

  // OWASP "CSV Injection" (https://owasp.org/www-community/attacks/CSV_Injection): also tab, CR, NUL and the
  // full-width forms, written by the same writer as the API's report downloads.
  it('neutralises tab, CR, NUL and full-width formula starts in an exported table', () => {
    const rows = ['\t=1+1', '\r=1', '\0=1', '＝HYPERLINK("x")', '＋1', '－1', '＠SUM(A1)', 'ok'];
    const csv = toCsv(rows, [{ header: 'Título', value: (r: string) => r }]);
    expect(csv.split('\r\n').slice(0, 1)).toEqual(['Título']);
    expect(csv).toBe(
      ['Título', "'\t=1+1", `"'\r=1"`, "'\0=1", `"'＝HYPERLINK(""x"")"`, "'＋1", "'－1", "'＠SUM(A1)", 'ok'].join('\r\n'),
    );
  });
});

const INCIDENT: Incident = anIncident({ slaDueAt: '2026-03-01T14:00:00.000Z' });

describe('readAllPages', () => {
  it('follows nextCursor through short pages (100 per request) and stops at maxItems', async () => {
    const incident = (id: string): Incident => ({ ...INCIDENT, id });
    const pages: Record<string, Page<Incident>> = {
      '': { items: [incident('INC-000001'), incident('INC-000002')], nextCursor: 'c1' },
      c1: { items: [], nextCursor: 'c2' },
      c2: { items: [incident('INC-000003')], nextCursor: null },
    };
    const api = fakeApi({ listIncidents: ({ query }) => pages[query?.cursor ?? '']! });
    const all = await readAllPages(api, 'listIncidents', { query: { tenant: 'acme', status: 'new' } }, 100);
    expect(all).toEqual({ items: [incident('INC-000001'), incident('INC-000002'), incident('INC-000003')], truncated: false });
    expect(api.call.mock.calls).toEqual([
      ['listIncidents', { query: { tenant: 'acme', status: 'new', limit: 100 } }],
      ['listIncidents', { query: { tenant: 'acme', status: 'new', limit: 100, cursor: 'c1' } }],
      ['listIncidents', { query: { tenant: 'acme', status: 'new', limit: 100, cursor: 'c2' } }],
    ]);
    const capped = await readAllPages(api, 'listIncidents', {}, 2);
    expect(capped).toEqual({ items: [incident('INC-000001'), incident('INC-000002')], truncated: true });
  });
});
