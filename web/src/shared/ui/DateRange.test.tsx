/**
 * The shared "Desde" / "Hasta" fields (docs/portal.md#date-ranges): one rule and one message for the
 * incident list, the audit log and the report periods.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { dateRangeMessage, DateRangeError, DateRangeFields, dateRangeError } from './DateRange';

function Harness({ initial }: { initial: { from: string; to: string } }) {
  const [range, setRange] = useState(initial);
  return (
    <form>
      <DateRangeFields idPrefix="t" from={range.from} to={range.to} errorId="t-err" onChange={(field, value) => setRange({ ...range, [field]: value })} />
      <DateRangeError id="t-err" from={range.from} to={range.to} />
    </form>
  );
}

describe('date range', () => {
  it('refuses only a start after the end; open ends and equal days are fine', () => {
    expect(dateRangeError('2026-03-02', '2026-03-01')).toBe(dateRangeMessage());
    expect(dateRangeError('2026-03-01', '2026-03-01')).toBeNull();
    expect(dateRangeError('2026-03-02', '')).toBeNull();
    expect(dateRangeError('', '2026-03-01')).toBeNull();
  });

  it('labels both fields, marks them invalid and shows the message while the range is inverted', () => {
    render(<Harness initial={{ from: '2026-03-01', to: '' }} />);
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2026-02-01' } });
    expect(screen.getByRole('alert').textContent).toBe('La fecha «Desde» no puede ser posterior a «Hasta».');
    for (const label of ['Desde', 'Hasta']) {
      expect(screen.getByLabelText(label).getAttribute('aria-invalid')).toBe('true');
      expect(screen.getByLabelText(label).getAttribute('aria-describedby')).toBe('t-err');
    }
    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2026-01-15' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('Desde').getAttribute('aria-invalid')).toBeNull();
  });
});
