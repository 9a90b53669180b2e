import { describe, expect, it } from 'vitest';
import { byDay, dayKey, monthGrid, parseMonth } from './month';

describe('month calendar', () => {
  it('lays out a month in Monday-first weeks padded with neighbouring days', () => {
    // March 2026 starts on a Sunday and has 31 days → 6 rows, from Mon 23 Feb to Sun 5 Apr.
    const { weeks, from, to } = monthGrid(2026, 2);
    expect(weeks).toHaveLength(6);
    expect(weeks.every((w) => w.length === 7)).toBe(true);
    expect(dayKey(weeks[0]![0]!)).toBe('2026-02-23');
    expect(dayKey(weeks[0]![6]!)).toBe('2026-03-01');
    expect(dayKey(weeks[5]![6]!)).toBe('2026-04-05');
    expect(from).toBe(new Date(2026, 2, 1).toISOString());
    expect(Date.parse(to)).toBe(new Date(2026, 3, 1).getTime() - 1);
    // February 2027 starts on a Monday and has 28 days → exactly 4 rows.
    expect(monthGrid(2027, 1).weeks).toHaveLength(4);
  });

  it('parses ?month and groups items by local day', () => {
    expect(parseMonth('2026-03')).toEqual({ year: 2026, month: 2 });
    expect(parseMonth('2026-13')).toBeNull();
    expect(parseMonth('marzo')).toBeNull();
    const at = new Date(2026, 2, 5, 23, 30).toISOString();
    const map = byDay([{ at }, { at }], (x) => x.at);
    expect(map.get('2026-03-05')).toHaveLength(2);
  });
});
