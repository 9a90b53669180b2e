/** English labels of entity fields (`fields.*`; same keys as `../es/fields.ts`, docs/portal.md#field-registries). */
import type { Catalogue } from '../es';

export const fields: Catalogue['fields'] = {
  incident: {
    id: 'ID',
    title: 'Title',
    severity: 'Severity',
    notTriaged: '· not triaged',
    status: 'Status',
    closureRequested: '· closure requested',
    category: 'Category',
    source: 'Source',
    reporter: 'Reported by',
    assignee: 'Assigned to',
    createdAt: 'Created',
    createdAtUtc: 'Created (UTC)',
    updatedAt: 'Updated',
    updatedAtUtc: 'Updated (UTC)',
    slaTargets: 'SLA targets',
    slaTargetsValue: 'response {{response}} · resolution {{resolution}}',
    firstAcknowledgedAt: 'Acknowledged',
    sla: 'SLA',
    slaDueAt: 'SLA due',
    slaDueAtUtc: 'SLA due (UTC)',
    onTime: 'on time',
    resolvedAt: 'Resolved',
    resolvedAtUtc: 'Resolved (UTC)',
    closedAt: 'Closed',
    slaResult: 'SLA result',
    met: 'Met',
    breached: 'Breached',
  },
};
