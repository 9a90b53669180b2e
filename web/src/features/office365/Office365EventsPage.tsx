/**
 * `/office365/events` (docs/portal.md#screens): the tenant's Office 365 unified audit log, newest first, with a time
 * range, workload, result and user filters; cursor pages ("Cargar más").
 */
import { useMemo } from 'react';
import { formatDateTime } from '../../shared/lib/format';
import { useTimeOfChange } from '../../shared/lib/hooks';
import { PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { eventsQuery, RANGES, rangeOf, RESULTS, useO365Events, WORKLOADS } from './api';
import { DataTable, FilterSelect, FilterText, ListFrame, useFilterParams } from '../../shared/ui/lists';
import { enumLabel } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';

/** The tenant's Office 365 audit events, filtered and paged. */
export function Office365EventsPage() {
  const { params, set } = useFilterParams();
  const key = params.toString();
  // `from` is recomputed only when the filters change (a stable SWR key while paging).
  const changedAt = useTimeOfChange(key);
  const query = useMemo(() => eventsQuery(new URLSearchParams(key), changedAt), [key, changedAt]);
  const list = useO365Events(query);
  return (
    <section>
      <PageHeader title={msg('office365.pages.office365Events')} />
      <form className="card filters" aria-label={msg('office365.pages.filterOffice365Events')} onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="o365e-range" label={msg('fields.common.period')} value={rangeOf(params)} all={null} options={Object.entries(RANGES)} onChange={(v) => set('range', v)} />
        <FilterSelect id="o365e-workload" label={msg('office365.pages.service')} value={String(query.workload ?? '')} options={WORKLOADS.map((w) => [w, w] as const)} onChange={(v) => set('workload', v)} />
        <FilterSelect id="o365e-result" label={msg('office365.pages.result')} value={String(query.result ?? '')} options={RESULTS.map((r) => [r, enumLabel('o365Result', r)] as const)} onChange={(v) => set('result', v)} />
        <FilterText id="o365e-user" label={msg('office365.pages.user')} placeholder={msg('office365.pages.userDomainExact')} value={query.user ?? ''} onApply={(v) => set('user', v)} />
      </form>
      <ListFrame list={list} empty={msg('office365.pages.noEventsInPeriod')}>
        <DataTable
          caption={msg('office365.pages.office365Events')}
          rows={list.items}
          rowKey={(e) => e.id}
          columns={[
            { label: msg('office365.pages.date'), cell: (e) => <time dateTime={e.at}>{formatDateTime(e.at)}</time> },
            { label: msg('office365.pages.service'), cell: (e) => e.workload },
            { label: msg('office365.pages.operation'), cell: (e) => e.operation },
            { label: msg('office365.pages.user'), cell: (e) => e.user },
            { label: msg('office365.pages.result'), cell: (e) => enumLabel('o365Result', e.result) },
            { label: msg('office365.pages.sourceIp'), cell: (e) => e.clientIp ?? '—' },
          ]}
        />
      </ListFrame>
    </section>
  );
}
