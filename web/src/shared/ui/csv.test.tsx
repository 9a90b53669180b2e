import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv';
import { collectPages } from './useAllPages';

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
});

describe('collectPages', () => {
  it('follows nextCursor through short pages and stops at maxItems', async () => {
    const pages: Record<string, { items: number[]; nextCursor: string | null }> = {
      '': { items: [1, 2], nextCursor: 'c1' },
      c1: { items: [], nextCursor: 'c2' },
      c2: { items: [3], nextCursor: null },
    };
    const seen: unknown[] = [];
    const all = await collectPages(async (q) => {
      seen.push(q);
      return pages[String(q.cursor ?? '')]!;
    }, { tenant: 'acme' }, 100);
    expect(all).toEqual({ items: [1, 2, 3], truncated: false });
    expect(seen).toEqual([
      { tenant: 'acme', limit: 100 },
      { tenant: 'acme', limit: 100, cursor: 'c1' },
      { tenant: 'acme', limit: 100, cursor: 'c2' },
    ]);
    const capped = await collectPages(async (q) => pages[String(q.cursor ?? '')]!, {}, 2);
    expect(capped).toEqual({ items: [1, 2], truncated: true });
  });
});
