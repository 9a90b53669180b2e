/** Staff changes to an incident: provider status, assignee (from `listAssignees`), category, with a comment. */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { IncidentStatus } from '../../shared/lib/contract';
import { INCIDENT_STATUS_LABELS } from '../../shared/lib/format';
import { NEXT_STATUSES, useAssignees, useIncidentRoleActions } from './api';
import { ClearLinkedAlarmsOption, openLinkedDeviceAlarms } from './LinkedAlarms';
import { t as msg } from '../../shared/lib/messages';
import { runAction, type FormProps } from './incident-action';
import { TriageFields, useTriageDraft } from './TriageFields';
import { FormActions } from '../../shared/ui/FormActions';

/** Staff changes to an incident: a next provider status (with the triage inline when untriaged), assignee and category. */
export function StaffUpdateForm({ incident, onDone, reload }: FormProps) {
  const actions = useIncidentRoleActions(incident.tenantId);
  const assignees = useAssignees(incident.tenantId);
  const [status, setStatus] = useState<IncidentStatus | ''>('');
  const triage = useTriageDraft(incident.severity);
  const needsTriage = status !== '' && status !== 'new' && !incident.triagedAt;
  const [category, setCategory] = useState(incident.category);
  const [assignee, setAssignee] = useState(incident.assignee ?? '');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Resolving with linked device alarms still open: clear them too unless unchecked (docs/api.md#linked-alarms).
  const [clearAlarms, setClearAlarms] = useState(true);
  const openAlarms = openLinkedDeviceAlarms(incident);
  const next = NEXT_STATUSES[incident.status];
  const categoryChanged = category.trim() !== incident.category;
  const assigneeChanged = assignee !== (incident.assignee ?? '');
  const changed = status !== '' || categoryChanged || assigneeChanged;
  const options = assignees.data?.items ?? [];
  const known = incident.assignee === null || options.some((a) => a.email === incident.assignee);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!changed) return;
    if (categoryChanged && (category.trim().length < 1 || category.trim().length > 60)) return setFieldError(msg('incidents.detail.categoryLength'));
    const reasonError = needsTriage ? triage.reasonError() : null;
    if (reasonError) return setFieldError(reasonError);
    setFieldError(null);
    setBusy(true);
    const ok = await runAction(
      () =>
        actions.update(incident.id, {
          version: incident.version,
          ...(status ? { status } : {}),
          ...(needsTriage ? { triage: { severity: triage.fields.severity, reason: triage.reason } } : {}),
          ...(categoryChanged ? { category: category.trim() } : {}),
          ...(assigneeChanged ? { assignee: assignee === '' ? null : assignee } : {}),
          ...(status === 'resolved' && openAlarms > 0 ? { clearLinkedAlarms: clearAlarms } : {}),
        }),
      msg('incidents.detail.updated'),
      onDone,
      reload,
    );
    if (!ok) setStatus('');
    setBusy(false);
  };

  return (
    <form className="card form" onSubmit={(e) => void onSubmit(e)}>
      <h2>{msg('incidents.detail.manage')}</h2>
      <div className="field">
        <label htmlFor="update-status">{msg('actions.changeStatus')}</label>
        <select id="update-status" value={status} disabled={next.length === 0} onChange={(e) => setStatus(e.target.value as IncidentStatus | '')}>
          <option value="">{next.length === 0 ? msg('incidents.detail.noChangesPossible') : msg('incidents.detail.keep', { status: INCIDENT_STATUS_LABELS[incident.status] })}</option>
          {next.map((s) => (
            <option key={s} value={s}>
              {INCIDENT_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      {status === 'resolved' && <ClearLinkedAlarmsOption open={openAlarms} checked={clearAlarms} onChange={setClearAlarms} />}
      {needsTriage && (
        <fieldset className="field triage-inline">
          <legend>{msg('incidents.detail.triage')}</legend>
          <p className="notice-info" role="status">
            {msg('incidents.detail.triageRequired', { status: INCIDENT_STATUS_LABELS[status as IncidentStatus] })}
          </p>
          <TriageFields idPrefix="update-triage" severityLabel={msg('incidents.detail.triageSeverity')} reasonLabel={msg('incidents.detail.triageReason')} {...triage.fields} />
        </fieldset>
      )}
      <div className="field">
        <label htmlFor="update-assignee">{msg('fields.incident.assignee')}</label>
        <select id="update-assignee" value={assignee} disabled={!assignees.data} onChange={(e) => setAssignee(e.target.value)}>
          <option value="">{msg('fields.incident.unassigned')}</option>
          {!known && incident.assignee && <option value={incident.assignee}>{incident.assignee}</option>}
          {options.map((a) => (
            <option key={a.username} value={a.email}>
              {a.email}
              {a.staff ? ' (SOC)' : ''}
            </option>
          ))}
        </select>
        {assignees.error && (
          <p className="field-error" role="alert">
            {msg('incidents.detail.assigneesLoadFailed')} {assignees.error.userMessage}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="update-category">{msg('fields.incident.category')}</label>
        <input id="update-category" value={category} maxLength={60} onChange={(e) => setCategory(e.target.value)} />
      </div>
      <FormActions busy={busy} disabled={!changed || busy} label={msg('actions.saveChanges')} busyLabel={msg('actions.saving')} error={fieldError} />
    </form>
  );
}
