/** A customer's actions on an incident: request closure, confirm the resolution, reopen (docs/api.md#incident-roles). */
import { useState } from 'react';
import type { IncidentDetail } from '../../shared/lib/contract';
import { formatDateTime } from '../../shared/lib/format';
import { REOPEN_GRACE_DAYS, useIncidentRoleActions } from './api';
import { t as msg } from '../../shared/lib/messages';
import { runAction, type FormProps } from './incident-action';
import { TextAction } from './TextAction';

/** Whether a customer may still reopen: resolved or closed within `REOPEN_GRACE_DAYS` (the API decides). */
function canReopen(incident: IncidentDetail, now: number): boolean {
  if (incident.status !== 'resolved' && incident.status !== 'closed') return false;
  const since = incident.closedAt ?? incident.resolvedAt;
  return !since || now - Date.parse(since) <= REOPEN_GRACE_DAYS * 86_400_000;
}

/** A customer's actions for the incident's state: request closure, confirm the resolution, reopen. */
export function CustomerActions({ incident, onDone, reload }: FormProps) {
  const actions = useIncidentRoleActions(incident.tenantId);
  const [now] = useState(() => Date.now());
  const [busy, setBusy] = useState(false);
  const open = incident.status !== 'resolved' && incident.status !== 'closed';
  const reopenable = canReopen(incident, now);
  const run = async (action: () => Promise<unknown>, ok: string) => {
    setBusy(true);
    await runAction(action, ok, onDone, reload);
    setBusy(false);
  };
  return (
    <div className="card">
      <h2>{msg('fields.common.actions')}</h2>
      {open && incident.closureRequested && <p className="muted">{msg('incidents.detail.closureRequestedNotice')}</p>}
      {open && !incident.closureRequested && (
        <TextAction
          id="closure-note"
          label={msg('incidents.detail.noteForTheSoc')}
          button={msg('incidents.detail.requestClosure')}
          min={1}
          busy={busy}
          onSubmit={(note) => run(() => actions.requestClosure(incident.id, note), msg('incidents.detail.closureRequestedDone'))}
        />
      )}
      {incident.status === 'resolved' && incident.autoCloseAt && (
        <p className="muted small">{msg('incidents.detail.autoCloseNotice', { date: formatDateTime(incident.autoCloseAt) })}</p>
      )}
      {incident.status === 'resolved' && (
        <div className="form-actions">
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void run(() => actions.confirmResolution(incident.id), msg('incidents.detail.resolutionConfirmed'))}>
            {msg('incidents.detail.confirmResolution')}
          </button>
        </div>
      )}
      {reopenable && (
        <TextAction
          id="reopen-reason"
          label={msg('incidents.detail.reopenReason', { REOPEN_GRACE_DAYS })}
          button={msg('actions.reopen')}
          min={3}
          busy={busy}
          onSubmit={(reason) => run(() => actions.reopen(incident.id, reason), msg('incidents.detail.reopenedDone'))}
        />
      )}
      {incident.status === 'closed' && !reopenable && <p className="muted">{msg('incidents.detail.theIncidentIsClosed')}</p>}
    </div>
  );
}

/** A labelled text area with one submit button; `min`–2000 characters (the API's limits). */
