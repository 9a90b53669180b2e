/**
 * The two fields of a triage (docs/sla.md#triage-first), shared by the triage form and the staff update form's
 * inline triage: the severity (select) and the reason (3–500 characters, the API's limit). Ids are
 * `<idPrefix>-severity` / `<idPrefix>-reason`; `error` (the reason's message) is shown under the reason and
 * marks it invalid.
 */
import { useState } from 'react';
import { SEVERITIES } from '../../shared/lib/contract';
import type { Severity } from '../../shared/lib/contract';
import { SEVERITY_LABELS } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';

/** The values `TriageFields` edits, with their setters (spread into it). */
interface TriageValues {
  severity: Severity;
  onSeverity: (s: Severity) => void;
  reason: string;
  onReason: (r: string) => void;
}

/**
 * A triage being written: the severity (starting at `initial`) and the reason, as `TriageFields`' props
 * (`fields`), the trimmed reason, and the reason's error when it is not 3–500 characters (null when it is).
 */
export function useTriageDraft(initial: Severity): { fields: TriageValues; reason: string; reasonError: () => string | null } {
  const [severity, onSeverity] = useState<Severity>(initial);
  const [reason, onReason] = useState('');
  const trimmed = reason.trim();
  return {
    fields: { severity, onSeverity, reason, onReason },
    reason: trimmed,
    reasonError: () => (trimmed.length < 3 || trimmed.length > 500 ? msg('incidents.detail.triageReasonLength') : null),
  };
}

/** The severity select and the reason textarea of a triage, with the reason's error under it. */
export function TriageFields(props: TriageValues & { idPrefix: string; severityLabel: string; reasonLabel: string; error?: string | null }) {
  const { idPrefix, error } = props;
  const errorId = `${idPrefix}-reason-error`;
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-severity`}>{props.severityLabel}</label>
        <select id={`${idPrefix}-severity`} value={props.severity} onChange={(e) => props.onSeverity(e.target.value as Severity)}>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {SEVERITY_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-reason`}>{props.reasonLabel}</label>
        <textarea
          id={`${idPrefix}-reason`}
          rows={2}
          maxLength={500}
          value={props.reason}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => props.onReason(e.target.value)}
        />
        {error && (
          <p id={errorId} className="field-error">
            {error}
          </p>
        )}
      </div>
    </>
  );
}
