/**
 * `/soc/queue` (staff only, docs/portal.md#soc-queue, docs/sla.md#soc-queue): the SOC's work queue across every
 * tenant, in the API's order — one Query per page, so the screen never re-sorts. Two tabs with their counts
 * (kept at write time by the API): "Abiertos" (the open work: untriaged or new first, then by SLA due time,
 * those at risk first; or by due time alone) and "Resueltos" (resolved, waiting for the customer). Columns:
 * incident, customer, severity, status, assignee, time to breach. Tab, order and filters (customer,
 * severity, status, "Sin asignar", "Asignados a mí", assignee) live in the URL (`filters.ts`); "Cargar más"
 * follows the cursor. A checkbox per row (and one for the whole loaded page) selects incidents for the bulk
 * bar (`BulkBar.tsx`: assign, change status, close resolved — one `POST /soc/bulk`, after a confirmation);
 * the selection is cleared when the tab or a filter changes and keeps the rows that failed.
 */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { INCIDENT_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import type { SocBulkResult, SocQueueItem } from '../../shared/lib/contract';
import { INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../../shared/lib/format';
import { ticketPath } from '../../shared/lib/links';
import { useApiSWRInfinite } from '../../shared/lib/api-context';
import { useTenant } from '../../shared/lib/tenant';
import { IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { DataTable, FilterSelect, ListFrame, useFilterParams } from '../../shared/ui/lists';
import { PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { t as msg } from '../../shared/lib/messages';
import { queueQuery, queueSort, queueTab, type QueueTab } from './filters';
import { BulkBar } from './BulkBar';

export { queueQuery, SOC_PAGE_SIZE } from './filters';

/** A queue row's key: incident ids are per tenant. */
const rowKey = (inc: Pick<SocQueueItem, 'tenantId' | 'id'>) => `${inc.tenantId}#${inc.id}`;

/** Statuses an open incident can have (the open tab holds no resolved or closed incident). */
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

export function SocQueuePage() {
  const { params, set } = useFilterParams();
  const [, setParams] = useSearchParams();
  const { tenants } = useTenant();
  const query = queueQuery(params);
  const tab = queueTab(params);
  const sort = queueSort(params);
  const list = useApiSWRInfinite('listSocQueue', { query });
  // The selection belongs to the view it was made in: another tab or filter starts with none.
  const queryKey = JSON.stringify(query);
  const [selection, setSelection] = useState<{ view: string; keys: ReadonlySet<string> }>({ view: queryKey, keys: new Set() });
  const picked: ReadonlySet<string> = selection.view === queryKey ? selection.keys : new Set();
  const setPicked = (keys: ReadonlySet<string>) => setSelection({ view: queryKey, keys });
  const selected = list.items.filter((inc) => picked.has(rowKey(inc)));
  const toggle = (inc: SocQueueItem, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(rowKey(inc));
    else next.delete(rowKey(inc));
    setPicked(next);
  };
  /** After a bulk request: reload the queue, keep the failed rows selected. */
  const bulkDone = async (result: SocBulkResult) => {
    setPicked(new Set(result.results.filter((r) => !r.ok).map(rowKey)));
    await list.mutate();
  };
  const counts = list.data?.[0]?.counts;
  const names = new Map(tenants.map((t) => [t.id, t.name]));
  const mine = query.mine === 'true';
  const unassigned = query.unassigned === 'true';
  const filtered = ['tenant', 'severity', 'status', 'assignee', 'mine', 'unassigned'].some((k) => params.has(k));
  const tabs: [QueueTab, string][] = [
    ['open', msg('soc.queue.tabOpen')],
    ['resolved', msg('soc.queue.tabResolved')],
  ];
  /** Sets one of the exclusive assignee filters, the others cleared, in one URL change. */
  const setWho = (key: 'mine' | 'unassigned', on: boolean) => {
    const next = new URLSearchParams(params);
    for (const k of ['mine', 'unassigned', 'assignee']) next.delete(k);
    if (on) next.set(key, 'true');
    setParams(next, { replace: true });
  };

  return (
    <section>
      <PageHeader title={msg('menu.socQueue')} />
      <div role="tablist" aria-label={msg('soc.queue.tabs')} className="segmented queue-tabs">
        {tabs.map(([id, label]) => (
          <button key={id} type="button" role="tab" id={`q-tab-${id}`} aria-selected={tab === id} aria-controls="q-panel" onClick={() => set('tab', id === 'open' ? '' : id)}>
            {counts ? `${label} (${counts[id]})` : label}
          </button>
        ))}
      </div>
      <form className="card filters" role="search" aria-label={msg('soc.queue.filterTheQueue')} onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="q-tenant" label={msg('fields.common.customer')} value={params.get('tenant') ?? ''} options={tenants.map((t) => [t.id, t.name] as const)} onChange={(v) => set('tenant', v)} />
        <FilterSelect id="q-severity" label={msg('fields.incident.severity')} all={msg('soc.queue.all')} value={params.get('severity') ?? ''} options={SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]] as const)} onChange={(v) => set('severity', v)} />
        {tab === 'open' && (
          <FilterSelect id="q-status" label={msg('fields.incident.status')} value={params.get('status') ?? ''} options={OPEN_STATUSES.map((s) => [s, INCIDENT_STATUS_LABELS[s]] as const)} onChange={(v) => set('status', v)} />
        )}
        {tab === 'open' && (
          <div className="field">
            <label htmlFor="q-sort">{msg('soc.queue.sortBy')}</label>
            <select id="q-sort" value={sort} onChange={(e) => set('sort', e.target.value === 'due' ? 'due' : '')}>
              <option value="priority">{msg('soc.queue.sortPriority')}</option>
              <option value="due">{msg('soc.queue.sortDue')}</option>
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor="q-assignee">{msg('fields.incident.assignee')}</label>
          <input id="q-assignee" type="search" inputMode="email" disabled={mine || unassigned} value={params.get('assignee') ?? ''} placeholder={msg('soc.queue.email')} onChange={(e) => set('assignee', e.target.value.trim())} />
        </div>
        <div className="field checkbox-field">
          <label>
            <input type="checkbox" checked={unassigned} onChange={(e) => setWho('unassigned', e.target.checked)} /> {msg('fields.incident.unassigned')}
          </label>
        </div>
        <div className="field checkbox-field">
          <label>
            <input type="checkbox" checked={mine} onChange={(e) => setWho('mine', e.target.checked)} /> {msg('soc.queue.assignedToMe')}
          </label>
        </div>
      </form>
      <div role="tabpanel" id="q-panel" aria-labelledby={`q-tab-${tab}`}>
        <ListFrame
          list={list}
          empty={tab === 'resolved' ? (filtered ? msg('soc.queue.noResolvedMatches') : msg('soc.queue.noResolved')) : filtered ? msg('soc.queue.noOpenMatches') : msg('soc.queue.noOpenIncidents')}
        >
          <p className="muted small" aria-live="polite">
            {msg('ui.lists.showing')} {list.items.length} {tab === 'resolved' ? msg('soc.queue.resolvedIncidents') : msg('soc.queue.openIncidents')}
            {list.hasMore ? msg('ui.lists.thereAreMore') : ''}
            {tab === 'resolved' ? msg('soc.queue.waitingForCustomerSuffix') : sort === 'due' ? msg('soc.queue.thoseDueSoonestFirst') : msg('soc.queue.newFirstThenAtRisk')}
          </p>
          <BulkBar
            selected={selected}
            tab={tab}
            customerName={(t) => names.get(t) ?? t}
            pageSize={list.items.length}
            allSelected={list.items.length > 0 && selected.length === list.items.length}
            onSelectPage={(on) => setPicked(on ? new Set(list.items.map(rowKey)) : new Set())}
            onDone={bulkDone}
            onClear={() => setPicked(new Set())}
          />
          <DataTable
            caption={tab === 'resolved' ? msg('soc.queue.resolvedCaption') : msg('soc.queue.socQueueOpenIncidents')}
            rows={list.items}
            rowKey={rowKey}
            columns={[
              {
                label: msg('soc.bulk.selectColumn'),
                hiddenLabel: true,
                cell: (inc) => <input type="checkbox" aria-label={msg('soc.bulk.select', { id: inc.id, customer: names.get(inc.tenantId) ?? inc.tenantId })} checked={picked.has(rowKey(inc))} onChange={(e) => toggle(inc, e.target.checked)} />,
              },
              {
                label: msg('soc.queue.incident'),
                cell: (inc) => (
                  <span>
                    <Link to={ticketPath(inc.id, inc.tenantId)}>{inc.id}</Link> {inc.title}
                  </span>
                ),
              },
              { label: msg('fields.common.customer'), cell: (inc) => names.get(inc.tenantId) ?? inc.tenantId },
              { label: msg('fields.incident.severity'), cell: (inc) => <SeverityBadge severity={inc.severity} /> },
              {
                label: msg('fields.incident.status'),
                cell: (inc) => (
                  <span>
                    <IncidentStatusBadge status={inc.status} />
                    {inc.triagedAt === null && inc.status !== 'resolved' && <span className="muted small"> {msg('soc.queue.untriaged')}</span>}
                    {inc.closureRequested && <span className="muted small"> {msg('soc.queue.closureRequested')}</span>}
                  </span>
                ),
              },
              { label: msg('fields.incident.assignee'), cell: (inc) => inc.assignee ?? msg('fields.incident.unassigned') },
              {
                label: msg('soc.queue.sla'),
                cell: (inc) => (
                  <span>
                    {queueSla(inc).label}
                    {inc.atRisk && inc.minutesToBreach >= 0 && <strong className="sla-at-risk"> · {msg('soc.queue.atRisk')}</strong>}
                  </span>
                ),
                cellClass: (inc) => (queueSla(inc).breached ? 'sla-breached' : undefined),
              },
            ]}
          />
        </ListFrame>
      </div>
    </section>
  );
}
