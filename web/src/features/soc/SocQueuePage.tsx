/**
 * `/soc/queue` (staff only, docs/portal.md#soc-queue): the open incidents of every tenant, SLA due time
 * first (breached first), as the API's `listSocQueue` returns them — one Query per page, so the screen
 * never re-sorts. Columns: incident, customer, severity, status, assignee, time to breach. Filters
 * (customer, severity, status, assignee, "Asignados a mí") live in the URL; "Cargar más" follows the cursor.
 */
import { Link } from 'react-router-dom';
import { INCIDENT_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import type { SocQueueItem, SocQueueQuery } from '../../shared/lib/contract';
import { INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../../shared/lib/format';
import { ticketPath } from '../../shared/lib/links';
import { useApiSWRInfinite } from '../../shared/lib/api-context';
import { useTenant } from '../../shared/lib/tenant';
import { IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { DataTable, FilterSelect, ListFrame, useFilterParams } from '../../shared/ui/lists';
import { PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { t as msg } from '../../shared/lib/messages';

/** Page size of the queue. */
export const SOC_PAGE_SIZE = 25;

/** Statuses an open incident can have (the queue holds no resolved or closed incident). */
const OPEN_STATUSES = INCIDENT_STATUSES.filter((s) => s !== 'resolved' && s !== 'closed');

/** Minutes to breach as text (portal language): "Incumplido hace 2 h 5 min" when negative, "Vence en 45 min" otherwise. */
export function breachLabel(minutes: number): string {
  const abs = Math.abs(minutes);
  const d = Math.floor(abs / 1440);
  const h = Math.floor((abs % 1440) / 60);
  const m = abs % 60;
  const text = [d ? `${d} d` : '', h ? `${h} h` : '', m || (!d && !h) ? `${m} min` : ''].filter(Boolean).join(' ');
  return minutes < 0 ? msg('soc.queue.breachedAgo', { text }) : msg('soc.queue.dueIn', { text });
}

/**
 * The SLA cell of a queue row. A resolved incident (awaiting the customer's confirmation or closure) has
 * met or missed its resolution target already: "Resuelto dentro del SLA" / "Resuelto fuera del SLA" (resolvedAt
 * against slaDueAt, docs/sla.md); an unresolved one shows the time to breach. `breached` = shown in red.
 */
export function queueSla(inc: Pick<SocQueueItem, 'resolvedAt' | 'slaDueAt' | 'minutesToBreach'>): { label: string; breached: boolean } {
  if (inc.resolvedAt) {
    const late = Date.parse(inc.resolvedAt) > Date.parse(inc.slaDueAt);
    return { label: late ? msg('soc.queue.resolvedOutsideTheSla') : msg('soc.queue.resolvedWithinTheSla'), breached: late };
  }
  return { label: breachLabel(inc.minutesToBreach), breached: inc.minutesToBreach < 0 };
}

/** The `listSocQueue` query of the URL's filters (`tenant`, `severity`, `status`, `assignee`, `mine`). */
export function queueQuery(params: URLSearchParams): SocQueueQuery {
  const q: SocQueueQuery = { limit: SOC_PAGE_SIZE };
  const tenant = params.get('tenant');
  const severity = params.get('severity');
  const status = params.get('status');
  const assignee = params.get('assignee');
  if (tenant) q.tenant = tenant;
  if (severity) q.severity = severity;
  if (status) q.status = status;
  if (params.get('mine') === 'true') q.mine = 'true';
  else if (assignee) q.assignee = assignee;
  return q;
}

export function SocQueuePage() {
  const { params, set } = useFilterParams();
  const { tenants } = useTenant();
  const query = queueQuery(params);
  const list = useApiSWRInfinite('listSocQueue', { query });
  const names = new Map(tenants.map((t) => [t.id, t.name]));
  const mine = params.get('mine') === 'true';
  const filtered = [...params.keys()].length > 0;

  return (
    <section>
      <PageHeader title={msg('soc.queue.socQueue')} />
      <form className="card filters" role="search" aria-label={msg('soc.queue.filterTheQueue')} onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="q-tenant" label={msg('soc.queue.customer')} value={params.get('tenant') ?? ''} options={tenants.map((t) => [t.id, t.name] as const)} onChange={(v) => set('tenant', v)} />
        <FilterSelect id="q-severity" label={msg('soc.queue.severity')} all={msg('soc.queue.all')} value={params.get('severity') ?? ''} options={SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]] as const)} onChange={(v) => set('severity', v)} />
        <FilterSelect id="q-status" label={msg('soc.queue.status')} value={params.get('status') ?? ''} options={OPEN_STATUSES.map((s) => [s, INCIDENT_STATUS_LABELS[s]] as const)} onChange={(v) => set('status', v)} />
        <div className="field">
          <label htmlFor="q-assignee">{msg('soc.queue.assignedTo')}</label>
          <input id="q-assignee" type="search" inputMode="email" disabled={mine} value={params.get('assignee') ?? ''} placeholder={msg('soc.queue.email')} onChange={(e) => set('assignee', e.target.value.trim())} />
        </div>
        <div className="field checkbox-field">
          <label>
            <input type="checkbox" checked={mine} onChange={(e) => set('mine', e.target.checked ? 'true' : '')} /> {msg('soc.queue.assignedToMe')}
          </label>
        </div>
      </form>
      <ListFrame list={list} empty={filtered ? msg('soc.queue.noOpenIncidentMatches') : msg('soc.queue.noOpenIncidents')}>
        <p className="muted small" aria-live="polite">
          {msg('soc.queue.showing')} {list.items.length} {msg('soc.queue.openIncidents')}{list.hasMore ? msg('soc.queue.thereAreMore') : ''}{msg('soc.queue.thoseDueSoonestFirst')}
        </p>
        <DataTable
          caption={msg('soc.queue.socQueueOpenIncidents')}
          rows={list.items}
          rowKey={(inc) => `${inc.tenantId}#${inc.id}`}
          columns={[
            {
              label: msg('soc.queue.incident'),
              cell: (inc) => (
                <span>
                  <Link to={ticketPath(inc.id, inc.tenantId)}>{inc.id}</Link> {inc.title}
                </span>
              ),
            },
            { label: msg('soc.queue.customer'), cell: (inc) => names.get(inc.tenantId) ?? inc.tenantId },
            { label: msg('soc.queue.severity'), cell: (inc) => <SeverityBadge severity={inc.severity} /> },
            {
              label: msg('soc.queue.status'),
              cell: (inc) => (
                <span>
                  <IncidentStatusBadge status={inc.status} />
                  {inc.closureRequested && <span className="muted small"> {msg('soc.queue.closureRequested')}</span>}
                </span>
              ),
            },
            { label: msg('soc.queue.assignedTo'), cell: (inc) => inc.assignee ?? msg('soc.queue.unassigned') },
            { label: msg('soc.queue.sla'), cell: (inc) => queueSla(inc).label, cellClass: (inc) => (queueSla(inc).breached ? 'sla-breached' : undefined) },
          ]}
        />
      </ListFrame>
    </section>
  );
}
