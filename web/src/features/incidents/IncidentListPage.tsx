/**
 * `/incidents/all`: the tenant's incidents with filters (status, severity, creation date range, text),
 * sort (newest/oldest), cursor pagination ("Cargar más") and CSV export of every matching incident.
 * The Severidad and SLA column headers re-order the rows already loaded (most severe / soonest due first,
 * a second click reverses; docs/portal.md#incident-list-sorting).
 * Filters live in the URL (`filters.ts`), so the dashboard tiles link to a filtered list and the browser
 * back button restores it. A table on wide screens; the same rows render as cards under 640 px (CSS).
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { canOperate, useTenant } from '../../shared/lib/tenant';
import { INCIDENT_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import type { IncidentStatus, Severity } from '../../shared/lib/contract';
import { INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../../shared/lib/format';
import { csvDialect, csvFilename, downloadCsv, toCsv, type CsvVariant } from '../../shared/ui/csv';
import { CsvButtons } from '../../shared/ui/CsvButtons';
import { CsvExportStatusLine, useCsvExport } from '../../shared/ui/useCsvExport';
import { DateRangeFields } from '../../shared/ui/DateRange';
import { FilterSelect, ListFrame, SortableHeader } from '../../shared/ui/lists';
import { PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { CSV_MAX_ITEMS, useIncidentExport, useIncidentList } from './api';
import { EMPTY_FILTERS, filtersError, filtersFromParams, filtersToParams, filtersToQuery, sortIncidents } from './filters';
import { INCIDENT_CSV_COLUMNS, INCIDENT_LIST_FIELDS } from './incident-fields';
import type { IncidentColumnSort, IncidentFilters } from './filters';
import { t as msg } from '../../shared/lib/messages';

/** Value of the status select meaning "open" (not resolved or closed). */
const OPEN = 'new,in_progress,on_hold';

export function IncidentListPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const invalid = filtersError(filters);
  const query = invalid ? {} : filtersToQuery(filters);
  const list = useIncidentList(query);
  const { me } = useTenant();
  const exportAll = useIncidentExport();
  const [qDraft, setQDraft] = useState(filters.q);
  const [columnSort, setColumnSort] = useState<IncidentColumnSort | null>(null);
  const rows = columnSort ? sortIncidents(list.items, columnSort) : list.items;

  const apply = (next: Partial<IncidentFilters>) => setParams(filtersToParams({ ...filters, ...next }), { replace: true });
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    apply({ q: qDraft });
  };
  const csvExport = useCsvExport(async (variant: CsvVariant) => {
    const all = await exportAll(query);
    downloadCsv(csvFilename(`incidentes-${new Date().toISOString().slice(0, 10)}`, variant), toCsv(all.items, INCIDENT_CSV_COLUMNS, csvDialect(variant)));
    return { count: all.items.length, truncated: all.truncated };
  });
  const statusValue = filters.status.join(',');
  const hasFilters = filtersToParams({ ...filters, sort: 'newest' }).toString() !== '';

  return (
    <section>
      <PageHeader title={msg('incidents.list.incidents')}>
        <CsvButtons label={msg('actions.exportCsv')} disabled={csvExport.busy} onDownload={(v) => void csvExport.start(v)} />
        {canOperate(me) ? (
          <Link to="/incidents/new" className="btn btn-primary">
            {msg('incidents.list.addIncident')}
          </Link>
        ) : null}
      </PageHeader>
      <form className="card filters" role="search" aria-label={msg('incidents.list.filterIncidents')} onSubmit={onSearch}>
        <div className="field">
          <label htmlFor="f-q">{msg('incidents.list.text')}</label>
          <input id="f-q" type="search" value={qDraft} placeholder={msg('incidents.list.idTitleDescription')} onChange={(e) => setQDraft(e.target.value)} />
        </div>
        <FilterSelect
          id="f-status"
          label={msg('fields.incident.status')}
          value={statusValue}
          options={[[OPEN, msg('incidents.list.open')] as const, ...INCIDENT_STATUSES.map((s) => [s, INCIDENT_STATUS_LABELS[s]] as const)]}
          onChange={(v) => apply({ status: v ? (v.split(',') as IncidentStatus[]) : [] })}
        />
        <FilterSelect id="f-severity" label={msg('fields.incident.severity')} all={msg('incidents.list.all')} value={filters.severity.join(',')} options={SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]] as const)} onChange={(v) => apply({ severity: v ? (v.split(',') as Severity[]) : [] })} />
        <DateRangeFields idPrefix="f" from={filters.from} to={filters.to} errorId="f-range-error" onChange={(field, value) => apply({ [field]: value })} />
        <div className="field">
          <label htmlFor="f-sort">{msg('incidents.list.order')}</label>
          <select id="f-sort" value={filters.sort} onChange={(e) => apply({ sort: e.target.value === 'oldest' ? 'oldest' : 'newest' })}>
            <option value="newest">{msg('incidents.list.newestFirst')}</option>
            <option value="oldest">{msg('incidents.list.oldestFirst')}</option>
          </select>
        </div>
        <div className="filters-actions">
          <button type="submit" className="btn btn-primary">
            {msg('incidents.list.search')}
          </button>
          <button
            type="button"
            className="btn"
            disabled={!hasFilters}
            onClick={() => {
              setQDraft('');
              setParams(filtersToParams(EMPTY_FILTERS), { replace: true });
            }}
          >
            {msg('incidents.list.clearFilters')}
          </button>
        </div>
      </form>
      <CsvExportStatusLine status={csvExport.status} downloaded={(o) => (o.truncated ? msg('incidents.list.csvTruncated', { CSV_MAX_ITEMS }) : msg('incidents.list.csvDownloadedIncidents', { length: o.count }))} />
      {invalid ? (
        <div className="error-state" role="alert" id="f-range-error">
          <p>{invalid}</p>
        </div>
      ) : (
        <ListFrame list={list} empty={hasFilters ? msg('incidents.list.noMatches') : msg('incidents.list.noIncidentsRecorded')}>
          <p className="muted small" aria-live="polite">
            {msg('ui.lists.showing')} {list.items.length} {msg('incidents.list.countNoun')}{list.hasMore ? msg('ui.lists.thereAreMore') : ''}.
            {columnSort && list.hasMore ? msg('incidents.list.sortScopeNote') : ''}
          </p>
          <table className="data-table responsive">
            <caption className="visually-hidden">{msg('incidents.list.incidentList')}</caption>
            <thead>
              <tr>
                {INCIDENT_LIST_FIELDS.map((f) =>
                  f.key === 'severity' || f.key === 'sla' ? (
                    <SortableHeader key={f.key} sortKey={f.key} label={f.label()} sort={columnSort} onSort={setColumnSort} />
                  ) : (
                    <th key={f.key} scope="col">
                      {f.label()}
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((inc) => (
                <tr key={inc.id}>
                  {INCIDENT_LIST_FIELDS.map((f) => (
                    <td key={f.key} data-label={f.label()}>
                      {f.cell!(inc)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ListFrame>
      )}
    </section>
  );
}
