/** The incident's details: customer, category, source, reporter, assignee, SLA targets, due time and result. */
import type { IncidentDetail } from '../../shared/lib/contract';
import { formatDateTime, INCIDENT_SOURCE_LABELS } from '../../shared/lib/format';
import { IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { slaLabel } from './filters';
import { t as msg } from '../../shared/lib/messages';
import { minutesLabel } from './incident-labels';

export function IncidentSummary({ incident, tenantName }: { incident: IncidentDetail; tenantName: string }) {
  return (
    <div className="card">
      <h2>{msg('incidents.detail.details')}</h2>
      <dl className="details">
        <dt>{msg('incidents.detail.customer')}</dt>
        <dd>{tenantName}</dd>
        <dt>{msg('incidents.detail.status')}</dt>
        <dd>
          <IncidentStatusBadge status={incident.status} />
          {incident.closureRequested && <span className="muted small"> {msg('incidents.detail.closureRequested')}</span>}
        </dd>
        <dt>{msg('incidents.detail.severity')}</dt>
        <dd>
          <SeverityBadge severity={incident.severity} />
          {!incident.triagedAt && <span className="muted small"> {msg('incidents.detail.notTriaged')}</span>}
        </dd>
        <dt>{msg('incidents.detail.category')}</dt>
        <dd>{incident.category}</dd>
        <dt>{msg('incidents.detail.source')}</dt>
        <dd>{INCIDENT_SOURCE_LABELS[incident.source] ?? incident.source}</dd>
        <dt>{msg('incidents.detail.reportedBy')}</dt>
        <dd>{incident.reporter}</dd>
        <dt>{msg('incidents.detail.assignedTo')}</dt>
        <dd>{incident.assignee ?? '—'}</dd>
        <dt>{msg('incidents.detail.created')}</dt>
        <dd>{formatDateTime(incident.createdAt)}</dd>
        <dt>{msg('incidents.detail.updated')}</dt>
        <dd>{formatDateTime(incident.updatedAt)}</dd>
        {incident.slaTargets && (
          <>
            <dt>{msg('incidents.detail.slaTargets')}</dt>
            <dd>
              {msg('incidents.detail.response')} {minutesLabel(incident.slaTargets.responseMinutes)} {msg('incidents.detail.resolution')} {minutesLabel(incident.slaTargets.resolutionMinutes)}
            </dd>
          </>
        )}
        {incident.firstAcknowledgedAt && (
          <>
            <dt>{msg('incidents.detail.acknowledged')}</dt>
            <dd>{formatDateTime(incident.firstAcknowledgedAt)}</dd>
          </>
        )}
        <dt>{msg('incidents.detail.slaDue')}</dt>
        <dd>
          {formatDateTime(incident.slaDueAt)} ({slaLabel(incident).startsWith(msg('incidents.detail.due')) ? msg('incidents.detail.onTime') : slaLabel(incident).toLowerCase()})
        </dd>
        {incident.resolvedAt && (
          <>
            <dt>{msg('incidents.detail.resolved')}</dt>
            <dd>{formatDateTime(incident.resolvedAt)}</dd>
          </>
        )}
        {incident.closedAt && (
          <>
            <dt>{msg('incidents.detail.closed')}</dt>
            <dd>{formatDateTime(incident.closedAt)}</dd>
          </>
        )}
        {incident.slaResult && (
          <>
            <dt>{msg('incidents.detail.slaResult')}</dt>
            <dd>{incident.slaResult === 'met' ? msg('incidents.detail.met') : msg('incidents.detail.breached')}</dd>
          </>
        )}
      </dl>
      <h3>{msg('incidents.detail.description')}</h3>
      <p className="pre-wrap">{incident.description}</p>
    </div>
  );
}
