/**
 * Month-calendar arithmetic for `/calendar` (local time zone of the browser; weeks start on Monday,
 * the Spanish convention).
 */

/** `YYYY-MM` of a date (local). */
export function monthKey(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

/** Parses `YYYY-MM` (1970–9999); null when malformed. */
export function parseMonth(s: string | null): { year: number; month: number } | null {
  const m = /^(\d{4})-(\d{2})$/.exec(s ?? '');
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]) - 1;
  return year >= 1970 && month >= 0 && month <= 11 ? { year, month } : null;
}

/** `YYYY-MM-DD` of a date (local). */
export function dayKey(d: Date): string {
  return `${monthKey(d)}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * The weeks shown for a month: 4–6 rows of 7 local dates, Monday first, padded with the neighbouring
 * months' days. Also returns the month's bounds as ISO-8601 UTC instants (first ms, last ms) for the
 * API's `from`/`to`.
 */
export function monthGrid(year: number, month: number): { weeks: Date[][]; from: string; to: string } {
  const first = new Date(year, month, 1);
  const offset = (first.getDay() + 6) % 7; // Monday = 0
  const start = new Date(year, month, 1 - offset);
  const last = new Date(year, month + 1, 0);
  const weeks: Date[][] = [];
  for (let cursor = start; weeks.length === 0 || cursor <= last; ) {
    const week: Date[] = [];
    for (let i = 0; i < 7; i++) {
      week.push(cursor);
      cursor = new Date(cursor.getFullYear(), cursor.getMonth(), cursor.getDate() + 1);
    }
    weeks.push(week);
  }
  return { weeks, from: first.toISOString(), to: new Date(year, month + 1, 1, 0, 0, 0, -1).toISOString() };
}

/** Groups items by the local day of `at(item)` (`YYYY-MM-DD`). */
export function byDay<T>(items: readonly T[], at: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = dayKey(new Date(at(item)));
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
