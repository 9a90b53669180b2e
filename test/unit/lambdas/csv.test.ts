/**
 * The one CSV writer (`lambdas/contract/csv.ts`) and its API user (the report download). The portal's user
 * is tested in web/src/shared/ui/csv.test.tsx. Neutralisation follows OWASP "CSV Injection"
 * (https://owasp.org/www-community/attacks/CSV_Injection).
 */
import { describe, expect, it } from 'vitest';
import { csvField, csvText } from '../../../lambdas/contract/csv.js';
import { buildReport, reportToCsv } from '../../../lambdas/domain/reports.js';

describe('the CSV writer', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
    ['\0=1', "'\0=1"],
    ['＝1+1', "'＝1+1"],
    ['＋1', "'＋1"],
    ['－1', "'－1"],
    ['＠SUM(A1)', "'＠SUM(A1)"],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
  ])('%j → %j', (cell, expected) => {
    expect(csvField(cell)).toBe(expected);
  });
  it('writes numbers, booleans and empty cells as they are, RFC 4180 quoting, CRLF lines', () => {
    expect(csvField(-5)).toBe('-5');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvText([['a,b', 'say "hi"'], ['x\ny', 1]])).toBe('"a,b","say ""hi"""\r\n"x\ny",1');
    expect(csvText([['a']], { trailingNewline: true })).toBe('a\r\n');
  });
});

describe('the report download uses it', () => {
  it('neutralises an alarm title typed by a collector (full-width and NUL included)', () => {
    const period = { from: '2026-01-01T00:00:00.000Z', to: '2026-01-31T00:00:00.000Z' };
    const alarms = ['＝cmd|\' /C calc\'!A0', '\0=1', '@SUM(1)'].map((title) => ({
      id: 'a', tenantId: 'acme', deviceId: 'd', title, severity: 'high' as const, state: 'active' as const,
      raisedAt: '2026-01-02T00:00:00.000Z', acknowledgedAt: null, acknowledgedBy: null, clearedAt: null,
    }));
    const figures = buildReport([{ tenantId: 'acme', incidents: [], devices: [], alarms }], period, new Date('2026-02-01T00:00:00Z'));
    const lines = reportToCsv(figures).split('\r\n').filter((l) => l.startsWith('top_alarms'));
    expect(lines.sort()).toEqual(["top_alarms,'\0=1,1,high", "top_alarms,'@SUM(1),1,high", "top_alarms,'＝cmd|' /C calc'!A0,1,high"].sort());
  });
});
