import { describe, expect, it } from 'vitest';
import { alarmsQuery, eventsQuery, rangeFrom } from './api';

const NOW = Date.parse('2026-03-10T12:34:56.789Z');

describe('Office 365 filters', () => {
  it('turns the time range into a minute-rounded ISO from (7 days by default, none for "all")', () => {
    expect(rangeFrom('24h', NOW)).toBe('2026-03-09T12:34:00.000Z');
    expect(alarmsQuery(new URLSearchParams(''), NOW)).toEqual({ from: '2026-03-03T12:34:00.000Z' });
    expect(rangeFrom('all', NOW)).toBeUndefined();
  });

  it('keeps only known severities, statuses, workloads and results', () => {
    expect(alarmsQuery(new URLSearchParams('range=30d&severity=high&status=investigating'), NOW)).toEqual({ from: '2026-02-08T12:34:00.000Z', severity: 'high', status: 'investigating' });
    expect(alarmsQuery(new URLSearchParams('range=all&severity=urgent&status=x'), NOW)).toEqual({ from: undefined });
    expect(eventsQuery(new URLSearchParams('range=all&workload=Exchange&result=Failed'), NOW)).toEqual({ from: undefined, workload: 'Exchange', result: 'Failed' });
    expect(eventsQuery(new URLSearchParams('range=all&workload=Yammer'), NOW)).toEqual({ from: undefined });
  });
});
