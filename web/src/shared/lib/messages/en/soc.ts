/** English texts of the `soc` feature (section `soc.*`; same keys as `../es/soc.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const soc: Catalogue['soc'] = {
  queue: {
    breachedAgo: 'Breached {{text}} ago',
    dueIn: 'Due in {{text}}',
    resolvedOutsideTheSla: 'Resolved outside the SLA',
    resolvedWithinTheSla: 'Resolved within the SLA',
    socQueue: 'SOC queue',
    filterTheQueue: 'Filter the queue',
    customer: 'Customer',
    severity: 'Severity',
    all: 'All',
    status: 'Status',
    assignedTo: 'Assigned to',
    email: 'email',
    assignedToMe: 'Assigned to me',
    noOpenIncidentMatches: 'No open incident matches the filters.',
    noOpenIncidents: 'No open incidents.',
    showing: 'Showing',
    openIncidents: 'open incidents',
    thereAreMore: ' (there are more)',
    thoseDueSoonestFirst: ', those due soonest first.',
    socQueueOpenIncidents: 'SOC queue: open incidents of every customer by SLA due time',
    incident: 'Incident',
    sla: 'SLA',
    closureRequested: '· closure requested',
    unassigned: 'Unassigned',
  },
};
