/** Staff triage of an incident (severity with a reason; docs/sla.md#triage-first). */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useIncidentRoleActions } from './api';
import { t as msg } from '../../shared/lib/messages';
import { runAction, type FormProps } from './incident-action';
import { FormActions } from '../../shared/ui/FormActions';
import { TriageFields, useTriageDraft } from './TriageFields';

/** Staff triage: the severity with a reason (3–500 characters); fixes the SLA targets (docs/sla.md). */
export function TriageForm({ incident, onDone, reload }: FormProps) {
  const actions = useIncidentRoleActions(incident.tenantId);
  const triage = useTriageDraft(incident.severity);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (incident.status === 'closed') return null;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const reasonError = triage.reasonError();
    setError(reasonError);
    if (reasonError) return;
    setBusy(true);
    await runAction(() => actions.triage(incident.id, { version: incident.version, severity: triage.fields.severity, reason: triage.reason }), msg('incidents.detail.triaged'), onDone, reload);
    setBusy(false);
  };
  return (
    <form className="card form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <h2>{msg('incidents.detail.triage')}</h2>
      <TriageFields idPrefix="triage" severityLabel={msg('fields.incident.severity')} reasonLabel={msg('incidents.detail.reason')} error={error} {...triage.fields} />
      <FormActions busy={busy} label={incident.triagedAt ? msg('incidents.detail.reTriage') : msg('incidents.detail.triage')} busyLabel={msg('actions.saving')} />
    </form>
  );
}

/**
 * Staff: provider status (allowed next states), assignee from the tenant's users and the staff, category. A
 * provider status on an untriaged incident asks for the triage inline (severity and reason), sent in the same
 * change (docs/sla.md#triage-first).
 */
