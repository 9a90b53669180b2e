/**
 * SOC queue tab, order and filters (`/soc/queue`) ⇄ URL search parameters ⇄ `GET /soc/queue` query
 * (`SocQueueQuery` in `lambdas/contract/schemas.ts`, docs/sla.md#soc-queue).
 *
 * URL form (shareable; defaults left out): `tab=resolved` (default: the open work), `sort=due` (default: the
 * ranked order — untriaged or new first, then by SLA due time), `tenant`, `severity`, `status` (open tab
 * only), and one of `unassigned=true` ("Sin asignar"), `mine=true` ("Asignados a mí") or `assignee=<e-mail>`.
 * Unknown values are dropped.
 */
import { INCIDENT_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import type { SocQueueQuery } from '../../shared/lib/contract';

/** Page size of the queue. */
export const SOC_PAGE_SIZE = 25;

/** The queue's tabs: the open work, and the resolved incidents waiting for the customer. */
export type QueueTab = 'open' | 'resolved';
/** The queue's orders: `priority` (default) or SLA due time alone. */
export type QueueSort = 'priority' | 'due';

/** The tab of the URL (`open` unless `tab=resolved`). */
export function queueTab(params: URLSearchParams): QueueTab {
  return params.get('tab') === 'resolved' ? 'resolved' : 'open';
}

/** The order of the URL (`priority` unless `sort=due`). */
export function queueSort(params: URLSearchParams): QueueSort {
  return params.get('sort') === 'due' ? 'due' : 'priority';
}

/**
 * The `listSocQueue` query of the URL (see the module docstring): `unassigned` wins over `mine`, which wins
 * over `assignee` (the API refuses `unassigned` with either); `status` only on the open tab.
 */
export function queueQuery(params: URLSearchParams): SocQueueQuery {
  const q: SocQueueQuery = { limit: SOC_PAGE_SIZE };
  const tab = queueTab(params);
  if (tab === 'resolved') q.tab = 'resolved';
  else if (queueSort(params) === 'due') q.sort = 'due';
  const tenant = params.get('tenant');
  const severity = params.get('severity');
  const status = params.get('status');
  const assignee = params.get('assignee');
  if (tenant) q.tenant = tenant;
  if (severity && (SEVERITIES as readonly string[]).includes(severity)) q.severity = severity;
  if (tab === 'open' && status && (INCIDENT_STATUSES as readonly string[]).includes(status)) q.status = status;
  if (params.get('unassigned') === 'true') q.unassigned = 'true';
  else if (params.get('mine') === 'true') q.mine = 'true';
  else if (assignee) q.assignee = assignee;
  return q;
}
