/**
 * `/devices/status`: the tenant's devices with status, last heartbeat, 30-day availability (%) and
 * open alarms (active or acknowledged). Cursor pagination with "Cargar más". Status, type and site filters
 * (in the address) and column order apply to the loaded devices (docs/portal.md#device-list-filters).
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { devicePath } from '../../shared/lib/links';
import { DEVICE_STATUSES } from '../../shared/lib/contract';
import { DEVICE_STATUS_LABELS, deviceTypeLabel, formatDateTime, formatPercent } from '../../shared/lib/format';
import { DeviceStatusBadge } from '../../shared/ui/badges';
import { FilterSelect, LoadMore, useFilterParams } from '../../shared/ui/lists';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { useDeviceList } from './api';
import { deviceFiltersFrom, distinctValues, filterDevices, sortDevices, type DeviceSort, type DeviceSortKey } from './filters';

export function DeviceStatusPage() {
  const list = useDeviceList();
  const { params, set } = useFilterParams();
  const filters = deviceFiltersFrom(params);
  const [sort, setSort] = useState<DeviceSort | null>(null);
  const filtered = filterDevices(list.items, filters);
  const rows = sort ? sortDevices(filtered, sort) : filtered;
  const sortHeader = (key: DeviceSortKey, label: string, className?: string) => {
    const active = sort?.key === key ? sort : null;
    return (
      <th scope="col" className={className} aria-sort={active ? (active.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
        <button type="button" className="th-sort" onClick={() => setSort({ key, direction: active?.direction === 'asc' ? 'desc' : 'asc' })}>
          {label}
          <span aria-hidden="true">{active ? (active.direction === 'asc' ? ' ▲' : ' ▼') : ' ↕'}</span>
        </button>
      </th>
    );
  };
  return (
    <section>
      <PageHeader title="Estado de dispositivos" />
      <form className="card filters" aria-label="Filtrar dispositivos" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="dev-status" label="Estado" value={filters.status} options={DEVICE_STATUSES.map((st) => [st, DEVICE_STATUS_LABELS[st]] as const)} onChange={(v) => set('status', v)} />
        <FilterSelect id="dev-type" label="Tipo" value={filters.type} options={distinctValues(list.items, 'type').map((t) => [t, deviceTypeLabel(t)] as const)} onChange={(v) => set('type', v)} />
        <FilterSelect id="dev-site" label="Sede" all="Todas" value={filters.site} options={distinctValues(list.items, 'site').map((x) => [x, x] as const)} onChange={(v) => set('site', v)} />
      </form>
      {list.error && !list.data ? (
        <ErrorState error={list.error} onRetry={() => void list.mutate()} />
      ) : list.isLoading ? (
        <LoadingState />
      ) : list.items.length === 0 ? (
        <EmptyState>No hay dispositivos registrados.</EmptyState>
      ) : (
        <>
          <p className="muted small" aria-live="polite">
            Mostrando {rows.length} de {list.items.length} dispositivos cargados{list.hasMore ? ' (hay más: los filtros y el orden se aplican a los cargados)' : ''}.
          </p>
          {rows.length === 0 && <EmptyState>Ningún dispositivo coincide con los filtros.</EmptyState>}
          <table className="data-table responsive">
            <caption className="visually-hidden">Estado de los dispositivos</caption>
            <thead>
              <tr>
                {sortHeader('name', 'Nombre')}
                <th scope="col">Tipo</th>
                <th scope="col">Sede</th>
                {sortHeader('status', 'Estado')}
                <th scope="col">Último latido</th>
                {sortHeader('availability', 'Disponibilidad 30 d', 'num')}
                {sortHeader('alarms', 'Alarmas abiertas', 'num')}
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id}>
                  <td data-label="Nombre">
                    <Link to={devicePath(d.id, d.tenantId)}>{d.name}</Link>
                  </td>
                  <td data-label="Tipo">{deviceTypeLabel(d.type)}</td>
                  <td data-label="Sede">{d.site}</td>
                  <td data-label="Estado">
                    <DeviceStatusBadge status={d.status} />
                  </td>
                  <td data-label="Último latido">
                    {d.lastHeartbeatAt ? <time dateTime={d.lastHeartbeatAt}>{formatDateTime(d.lastHeartbeatAt)}</time> : '—'}
                  </td>
                  <td data-label="Disponibilidad 30 d" className="num">
                    {formatPercent(d.availability30d)}
                  </td>
                  <td data-label="Alarmas abiertas" className="num">
                    {d.openAlarms}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.error && <ErrorState error={list.error} onRetry={() => void list.mutate()} />}
          <LoadMore list={list} />
        </>
      )}
    </section>
  );
}
