/**
 * The end of every form that saves through the API (docs/portal.md#forms): the form's own error (what
 * belongs to no field, `formErrorsOf`), announced as an alert, then the submit button — disabled and
 * relabelled ("Guardando…") while the request runs, so it cannot be sent twice — and any other buttons.
 */
import type { ReactNode } from 'react';

/** The form's error (if any) above its buttons: the submit one, disabled and relabelled while `busy`, then `children`. */
export function FormActions({ busy, disabled = busy, label, busyLabel, error, children }: {
  /** The request is running. */
  busy: boolean;
  /** The submit button is disabled (default: while `busy`; e.g. also while nothing changed, or while another of the form's requests runs). */
  disabled?: boolean;
  /** The submit button's text. */
  label: string;
  /** Its text while `busy` (default: `label`). */
  busyLabel?: string;
  /** The form's error, shown above the buttons (none: nothing). */
  error?: string | null | undefined;
  /** More buttons after the submit one (e.g. "Cancelar"). */
  children?: ReactNode;
}) {
  return (
    <>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={disabled}>
          {busy ? (busyLabel ?? label) : label}
        </button>
        {children}
      </div>
    </>
  );
}
