/**
 * Form fields the two notification settings screens share (`NotificationPreferencesPage`, `WebhooksPage`):
 * a field's hint and error lines, the minimum-severity select and a checkbox with its hint. Ids follow one
 * rule: the control is `id`, its hint `${id}-hint`, its error `${id}-error`, and the control is described by
 * both (docs/notifications.md#portal-screens).
 */
import { ACTIVITY_SEVERITIES, type ActivitySeverity } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';

/** `aria-describedby` of control `id`: its hint (when it has one) and its error (when there is one). */
export function describedBy(id: string, hint: boolean, error: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

/** The hint and error lines under control `id` (each only when given). */
export function FieldNotes({ id, hint, error }: { id: string; hint?: string | undefined; error?: string | undefined }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="field-hint muted small">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </>
  );
}

/** The minimum severity (the contract's `ACTIVITY_SEVERITIES`, labels `notifications.minSeverity.*`). */
export function MinSeveritySelect({ id, value, onChange, hint, error }: { id: string; value: ActivitySeverity; onChange: (v: ActivitySeverity) => void; hint?: string | undefined; error?: string | undefined }) {
  return (
    <div className="field">
      <label htmlFor={id}>{msg('notifications.preferences.minSeverity')}</label>
      <select id={id} value={value} aria-describedby={describedBy(id, Boolean(hint), error)} aria-invalid={error ? true : undefined} onChange={(e) => onChange(e.target.value as ActivitySeverity)}>
        {ACTIVITY_SEVERITIES.map((s) => (
          <option key={s} value={s}>
            {msg(`notifications.minSeverity.${s}`)}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A checkbox with its label, hint and error (the hint describes it). */
export function CheckField({ id, checked, onChange, label, hint, error }: { id: string; checked: boolean; onChange: (v: boolean) => void; label: string; hint: string; error?: string | undefined }) {
  return (
    <div className="field check-field">
      <label className="choice">
        <input id={id} type="checkbox" checked={checked} aria-describedby={`${id}-hint`} onChange={(e) => onChange(e.target.checked)} /> {label}
      </label>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
