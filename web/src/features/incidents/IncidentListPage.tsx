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
import { INCIDENT_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import type { IncidentStatus, Severity } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import { formatDateTime, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../../shared/lib/format';
import { IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { csvDialect, csvFilename, downloadCsv, toCsv, type CsvVariant } from '../../shared/ui/csv';
import { CsvButtons } from '../../shared/ui/CsvButtons';
import { DateRangeFields } from '../../shared/ui/DateRange';
import { FilterSelect, ListFrame } from '../../shared/ui/lists';
import { PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { CSV_MAX_ITEMS, useIncidentExport, useIncidentList } from './api';
import { EMPTY_FILTERS, filtersError, filtersFromParams, filtersToParams, filtersToQuery, INCIDENT_CSV_COLUMNS, slaLabel, sortIncidents } from './filters';
import type { IncidentColumnSort, IncidentFilters } from './filters';
import { ticketPath } from '../../shared/lib/links';

/** Value of the status select meaning "open" (not resolved or closed). */
const OPEN = 'new,in_progress,on_hold';

export function IncidentListPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const invalid = filtersError(filters);
  const query = invalid ? {} : filtersToQuery(filters);
  const list = useIncidentList(query);
  const exportAll = useIncidentExport();
  const [exporting, setExporting] = useState<string | null>(null);
  const [qDraft, setQDraft] = useState(filters.q);
  const [columnSort, setColumnSort] = useState<IncidentColumnSort | null>(null);
  const rows = columnSort ? sortIncidents(list.items, columnSort) : list.items;
  const sortHeader = (key: IncidentColumnSort['key'], label: string) => {
    const active = columnSort?.key === key ? columnSort : null;
    return (
      <th scope="col" aria-sort={active ? (active.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
        <button
          type="button"
          className="th-sort"
          onClick={() => setColumnSort({ key, direction: active?.direction === 'asc' ? 'desc' : 'asc' })}
        >
          {label}
          <span aria-hidden="true">{active ? (active.direction === 'asc' ? ' ▲' : ' ▼') : ' ↕'}</span>
        </button>
      </th>
    );
  };

  const apply = (next: Partial<IncidentFilters>) => setParams(filtersToParams({ ...filters, ...next }), { replace: true });
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    apply({ q: qDraft });
  };
  const onExport = async (variant: CsvVariant) => {
    setExporting('Preparando CSV…');
    try {
      const all = await exportAll(query);
      downloadCsv(csvFilename(`incidentes-${new Date().toISOString().slice(0, 10)}`, variant), toCsv(all.items, INCIDENT_CSV_COLUMNS, csvDialect(variant)));
      setExporting(all.truncated ? `CSV descargado con los primeros ${CSV_MAX_ITEMS} incidentes.` : `CSV descargado (${all.items.length} incidentes).`);
    } catch (err) {
      setExporting(`No se pudo exportar: ${toApiError(err).userMessage}`);
    }
  };
  const statusValue = filters.status.join(',');
  const hasFilters = filtersToParams({ ...filters, sort: 'newest' }).toString() !== '';

  return (
    <section>
      <PageHeader title="Incidentes">
        <CsvButtons label="Exportar CSV" disabled={exporting === 'Preparando CSV…'} onDownload={(v) => void onExport(v)} />
        <Link to="/incidents/new" className="btn btn-primary">
          Agregar incidente
        </Link>
      </PageHeader>
      <form className="card filters" role="search" aria-label="Filtrar incidentes" onSubmit={onSearch}>
        <div className="field">
          <label htmlFor="f-q">Texto</label>
          <input id="f-q" type="search" value={qDraft} placeholder="ID, título, descripción…" onChange={(e) => setQDraft(e.target.value)} />
        </div>
        <FilterSelect
          id="f-status"
          label="Estado"
          value={statusValue}
          options={[[OPEN, 'Abiertos'] as const, ...INCIDENT_STATUSES.map((s) => [s, INCIDENT_STATUS_LABELS[s]] as const)]}
          onChange={(v) => apply({ status: v ? (v.split(',') as IncidentStatus[]) : [] })}
        />
        <FilterSelect id="f-severity" label="Severidad" all="Todas" value={filters.severity.join(',')} options={SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]] as const)} onChange={(v) => apply({ severity: v ? (v.split(',') as Severity[]) : [] })} />
        <DateRangeFields idPrefix="f" from={filters.from} to={filters.to} errorId="f-range-error" onChange={(field, value) => apply({ [field]: value })} />
        <div className="field">
          <label htmlFor="f-sort">Orden</label>
          <select id="f-sort" value={filters.sort} onChange={(e) => apply({ sort: e.target.value === 'oldest' ? 'oldest' : 'newest' })}>
            <option value="newest">Más recientes primero</option>
            <option value="oldest">Más antiguos primero</option>
          </select>
        </div>
        <div className="filters-actions">
          <button type="submit" className="btn btn-primary">
            Buscar
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
            Limpiar filtros
          </button>
        </div>
      </form>
      {exporting && (
        <p role="status" className="muted small">
          {exporting}
        </p>
      )}
      {invalid ? (
        <div className="error-state" role="alert" id="f-range-error">
          <p>{invalid}</p>
        </div>
      ) : (
        <ListFrame list={list} empty={hasFilters ? 'Ningún incidente coincide con los filtros.' : 'No hay incidentes registrados.'}>
          <p className="muted small" aria-live="polite">
            Mostrando {list.items.length} incidentes{list.hasMore ? ' (hay más)' : ''}.
            {columnSort && list.hasMore ? ' El orden por columna se aplica a los incidentes cargados.' : ''}
          </p>
          <table className="data-table responsive">
            <caption className="visually-hidden">Lista de incidentes</caption>
            <thead>
              <tr>
                <th scope="col">ID</th>
                <th scope="col">Título</th>
                {sortHeader('severity', 'Severidad')}
                <th scope="col">Estado</th>
                <th scope="col">Categoría</th>
                <th scope="col">Creado</th>
                {sortHeader('sla', 'SLA')}
              </tr>
            </thead>
            <tbody>
              {rows.map((inc) => (
                <tr key={inc.id}>
                  <td data-label="ID">
                    <Link to={ticketPath(inc.id, inc.tenantId)}>{inc.id}</Link>
                  </td>
                  <td data-label="Título">{inc.title}</td>
                  <td data-label="Severidad">
                    <SeverityBadge severity={inc.severity} />
                  </td>
                  <td data-label="Estado">
                    <IncidentStatusBadge status={inc.status} />
                  </td>
                  <td data-label="Categoría">{inc.category}</td>
                  <td data-label="Creado">
                    <time dateTime={inc.createdAt}>{formatDateTime(inc.createdAt)}</time>
                  </td>
                  <td data-label="SLA">{slaLabel(inc)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ListFrame>
      )}
    </section>
  );
}
