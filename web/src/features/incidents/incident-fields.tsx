/**
 * The incident's fields, declared once (docs/portal.md#field-registries): the list table's columns, the CSV
 * export's columns and the details card's rows all come from {@link INCIDENT_FIELDS}. Labels are the catalogue's
 * `fields.incident.*`; CSV dates are ISO-8601 UTC (`…Utc` headers), list and details dates in the reader's
 * time zone.
 */
import { Link } from 'react-router-dom';
import type { Incident } from '../../shared/lib/contract';
import { formatDateTime, INCIDENT_SOURCE_LABELS, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../../shared/lib/format';
import { ticketPath } from '../../shared/lib/links';
import { t as msg } from '../../shared/lib/messages';
import { IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { csvColumnsOf, listFieldsOf, type EntityField } from '../../shared/ui/fields';
import { slaLabel } from './filters';
import { minutesLabel } from './incident-labels';

const when = (iso: string | null | undefined) => (iso ? <time dateTime={iso}>{formatDateTime(iso)}</time> : '—');

/** Every field of an incident the portal shows or exports, in display order. */
export const INCIDENT_FIELDS: readonly EntityField<Incident>[] = [
  { key: 'id', label: () => msg('fields.incident.id'), cell: (i) => <Link to={ticketPath(i.id, i.tenantId)}>{i.id}</Link>, csv: { value: (i) => i.id } },
  { key: 'title', label: () => msg('fields.incident.title'), cell: (i) => i.title, csv: { value: (i) => i.title } },
  {
    key: 'severity',
    label: () => msg('fields.incident.severity'),
    cell: (i) => <SeverityBadge severity={i.severity} />,
    detail: (i) => (
      <>
        <SeverityBadge severity={i.severity} />
        {!i.triagedAt && <span className="muted small"> {msg('fields.incident.notTriaged')}</span>}
      </>
    ),
    csv: { value: (i) => SEVERITY_LABELS[i.severity] },
  },
  {
    key: 'status',
    label: () => msg('fields.incident.status'),
    cell: (i) => <IncidentStatusBadge status={i.status} />,
    detail: (i) => (
      <>
        <IncidentStatusBadge status={i.status} />
        {i.closureRequested && <span className="muted small"> {msg('fields.incident.closureRequested')}</span>}
      </>
    ),
    csv: { value: (i) => INCIDENT_STATUS_LABELS[i.status] },
  },
  { key: 'category', label: () => msg('fields.incident.category'), cell: (i) => i.category, detail: (i) => i.category, csv: { value: (i) => i.category } },
  { key: 'source', label: () => msg('fields.incident.source'), detail: (i) => INCIDENT_SOURCE_LABELS[i.source] ?? i.source, csv: { value: (i) => INCIDENT_SOURCE_LABELS[i.source] } },
  { key: 'reporter', label: () => msg('fields.incident.reporter'), detail: (i) => i.reporter, csv: { value: (i) => i.reporter } },
  { key: 'assignee', label: () => msg('fields.incident.assignee'), detail: (i) => i.assignee ?? '—', csv: { value: (i) => i.assignee } },
  { key: 'createdAt', label: () => msg('fields.incident.createdAt'), cell: (i) => when(i.createdAt), detail: (i) => when(i.createdAt), csv: { header: () => msg('fields.incident.createdAtUtc'), value: (i) => i.createdAt } },
  { key: 'updatedAt', label: () => msg('fields.incident.updatedAt'), detail: (i) => when(i.updatedAt), csv: { header: () => msg('fields.incident.updatedAtUtc'), value: (i) => i.updatedAt } },
  {
    key: 'slaTargets',
    label: () => msg('fields.incident.slaTargets'),
    detail: (i) => msg('fields.incident.slaTargetsValue', { response: minutesLabel(i.slaTargets!.responseMinutes), resolution: minutesLabel(i.slaTargets!.resolutionMinutes) }),
    showInDetail: (i) => !!i.slaTargets,
  },
  { key: 'firstAcknowledgedAt', label: () => msg('fields.incident.firstAcknowledgedAt'), detail: (i) => when(i.firstAcknowledgedAt), showInDetail: (i) => !!i.firstAcknowledgedAt },
  {
    key: 'sla',
    label: () => msg('fields.incident.sla'),
    cell: (i) => slaLabel(i),
    csv: { header: () => msg('fields.incident.slaDueAtUtc'), value: (i) => i.slaDueAt },
  },
  {
    key: 'slaDueAt',
    label: () => msg('fields.incident.slaDueAt'),
    detail: (i) => `${formatDateTime(i.slaDueAt)} (${i.resolvedAt || Date.parse(i.slaDueAt) < Date.now() ? slaLabel(i).toLowerCase() : msg('fields.incident.onTime')})`,
  },
  { key: 'resolvedAt', label: () => msg('fields.incident.resolvedAt'), detail: (i) => when(i.resolvedAt), showInDetail: (i) => !!i.resolvedAt, csv: { header: () => msg('fields.incident.resolvedAtUtc'), value: (i) => i.resolvedAt } },
  { key: 'closedAt', label: () => msg('fields.incident.closedAt'), detail: (i) => when(i.closedAt), showInDetail: (i) => !!i.closedAt },
  {
    key: 'slaResult',
    label: () => msg('fields.incident.slaResult'),
    detail: (i) => (i.slaResult === 'met' ? msg('fields.incident.met') : msg('fields.incident.breached')),
    showInDetail: (i) => !!i.slaResult,
  },
];

/** The incident list's columns (fields with a cell). */
export const INCIDENT_LIST_FIELDS = listFieldsOf(INCIDENT_FIELDS);

/** The incident CSV export's columns (headers in the portal's language, dates ISO-8601 UTC). */
export const INCIDENT_CSV_COLUMNS = csvColumnsOf(INCIDENT_FIELDS);
