/**
 * The two fields of a triage (docs/sla.md#triage-first), shared by the triage form and the staff update form's
 * inline triage: the severity (select) and the reason (3–500 characters, the API's limit). Ids are
 * `<idPrefix>-severity` / `<idPrefix>-reason`; `error` (the reason's message) is shown under the reason and
 * marks it invalid.
 */
import { SEVERITIES } from '../../shared/lib/contract';
import type { Severity } from '../../shared/lib/contract';
import { SEVERITY_LABELS } from '../../shared/lib/format';

export function TriageFields(props: {
  idPrefix: string;
  severityLabel: string;
  reasonLabel: string;
  severity: Severity;
  onSeverity: (s: Severity) => void;
  reason: string;
  onReason: (r: string) => void;
  error?: string | null;
}) {
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
