/**
 * The "Desde" / "Hasta" date range of the portal's filter bars and report periods (incident list, audit
 * log, reports and analytics): two labelled `<input type="date">` fields and the one rule they share — a
 * range whose start is after its end is refused with `dateRangeMessage()` (docs/portal.md#date-ranges).
 *
 * Values are calendar dates `YYYY-MM-DD` or `''` (open end); each screen decides how a date becomes an
 * instant (local or UTC day bounds). The fields are controlled: the screen keeps the values (URL or draft
 * state) and receives each change as `onChange(field, value)`.
 */
import type { ReactNode } from 'react';
import { t, useT } from '../lib/messages';

/**
 * The message shown when "Desde" is after "Hasta" (no request is sent for such a range), in the portal's
 * language (catalogue key `ui.dateRange.inverted`).
 */
export function dateRangeMessage(): string {
  return t('ui.dateRange.inverted');
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `dateRangeMessage()` when both ends are dates (`YYYY-MM-DD`) and `from` is after `to`, else null (an open
 * end, or a value that is not a date, is not a range error).
 */
export function dateRangeError(from: string, to: string): string | null {
  return DATE.test(from) && DATE.test(to) && from > to ? dateRangeMessage() : null;
}

/**
 * The two date fields, each a `.field` of the surrounding filter grid, with ids `<idPrefix>-from` and
 * `<idPrefix>-to`. When the range is invalid both fields carry `aria-invalid` and point to `errorId` (the
 * element where the screen shows `dateRangeMessage()`, rendered by `DateRangeError` or by the screen itself).
 */
export function DateRangeFields({
  idPrefix,
  from,
  to,
  onChange,
  errorId,
}: {
  idPrefix: string;
  from: string;
  to: string;
  onChange: (field: 'from' | 'to', value: string) => void;
  errorId?: string;
}) {
  const t = useT();
  const invalid = dateRangeError(from, to) !== null;
  const a11y = invalid ? { 'aria-invalid': true, ...(errorId ? { 'aria-describedby': errorId } : {}) } : {};
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-from`}>{t('ui.dateRange.from')}</label>
        <input id={`${idPrefix}-from`} name="from" type="date" value={from} onChange={(e) => onChange('from', e.target.value)} {...a11y} />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-to`}>{t('ui.dateRange.to')}</label>
        <input id={`${idPrefix}-to`} name="to" type="date" value={to} onChange={(e) => onChange('to', e.target.value)} {...a11y} />
      </div>
    </>
  );
}

/** The refusal of an inverted range, as an alert (`id` = the fields' `errorId`); nothing when the range is valid. */
export function DateRangeError({ id, from, to, children }: { id?: string; from: string; to: string; children?: ReactNode }) {
  const error = dateRangeError(from, to);
  if (!error) return null;
  return (
    <div className="error-state" role="alert" id={id}>
      <p>{error}</p>
      {children}
    </div>
  );
}
