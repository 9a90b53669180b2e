/**
 * The hours of one escalation contact in the form (docs/api.md#escalation-contacts): "always (24x7)" or days of the
 * week with a from/to wall-clock range in an IANA time zone; a `to` before `from` is an overnight range.
 */
import { WEEKDAYS, type Weekday } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';
import { timeZones, type ContactDraft, type DraftErrors } from './contact-draft';

interface Props {
  id: string;
  draft: ContactDraft;
  errors: DraftErrors;
  prefix: string;
  onChange: (patch: Partial<ContactDraft>) => void;
}

export function HoursFields({ id, draft, errors, prefix, onChange }: Props) {
  const toggleDay = (day: Weekday, on: boolean) => onChange({ days: WEEKDAYS.filter((d) => (d === day ? on : draft.days.includes(d))) });
  const daysError = errors[`${prefix}.days`];
  const toError = errors[`${prefix}.to`];
  return (
    <>
      <fieldset className="choice-row">
        <legend>{msg('escalation.contact.hours')}</legend>
        <label className="choice">
          <input type="radio" name={`${id}-hours`} checked={draft.always} onChange={() => onChange({ always: true })} /> {msg('escalation.contact.always')}
        </label>
        <label className="choice">
          <input type="radio" name={`${id}-hours`} checked={!draft.always} onChange={() => onChange({ always: false })} /> {msg('escalation.contact.window')}
        </label>
      </fieldset>
      {!draft.always && (
        <>
          <fieldset className="choice-row" aria-describedby={daysError ? `${id}-days-error` : undefined}>
            <legend>{msg('escalation.contact.days')}</legend>
            {WEEKDAYS.map((day) => (
              <label key={day} className="choice">
                <input type="checkbox" checked={draft.days.includes(day)} onChange={(e) => toggleDay(day, e.target.checked)} /> {msg(`escalation.days.${day}`)}
              </label>
            ))}
          </fieldset>
          {daysError && (
            <p id={`${id}-days-error`} className="field-error">
              {daysError}
            </p>
          )}
          <div className="field-row">
            <div className="field">
              <label htmlFor={`${id}-from`}>{msg('escalation.contact.from')}</label>
              <input id={`${id}-from`} type="time" value={draft.from} required onChange={(e) => onChange({ from: e.target.value })} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-to`}>{msg('escalation.contact.to')}</label>
              <input
                id={`${id}-to`}
                type="time"
                value={draft.to}
                required
                aria-invalid={toError ? true : undefined}
                aria-describedby={`${id}-to-hint${toError ? ` ${id}-to-error` : ''}`}
                onChange={(e) => onChange({ to: e.target.value })}
              />
              <p id={`${id}-to-hint`} className="field-hint muted small">
                {msg('escalation.contact.toHint')}
              </p>
              {toError && (
                <p id={`${id}-to-error`} className="field-error">
                  {toError}
                </p>
              )}
            </div>
          </div>
          <div className="field">
            <label htmlFor={`${id}-tz`}>{msg('escalation.contact.timeZone')}</label>
            <select id={`${id}-tz`} value={draft.timeZone} onChange={(e) => onChange({ timeZone: e.target.value })}>
              {timeZones(draft.timeZone).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          </div>
        </>
      )}
    </>
  );
}
