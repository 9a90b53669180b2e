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
import { FilterSelect, LoadMore, SortableHeader, useFilterParams } from '../../shared/ui/lists';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { useDeviceList } from './api';
import { deviceFiltersFrom, distinctValues, filterDevices, sortDevices, type DeviceSort, type DeviceSortKey } from './filters';
import { t as msg } from '../../shared/lib/messages';

export function DeviceStatusPage() {
  const list = useDeviceList();
  const { params, set } = useFilterParams();
  const filters = deviceFiltersFrom(params);
  const [sort, setSort] = useState<DeviceSort | null>(null);
  const filtered = filterDevices(list.items, filters);
  const rows = sort ? sortDevices(filtered, sort) : filtered;
  const sortHeader = (key: DeviceSortKey, label: string, className?: string) => <SortableHeader sortKey={key} label={label} sort={sort} onSort={setSort} className={className} />;
  return (
    <section>
      <PageHeader title={msg('devices.status.deviceStatus')} />
      <form className="card filters" aria-label={msg('devices.status.filterDevices')} onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="dev-status" label={msg('devices.status.status')} value={filters.status} options={DEVICE_STATUSES.map((st) => [st, DEVICE_STATUS_LABELS[st]] as const)} onChange={(v) => set('status', v)} />
        <FilterSelect id="dev-type" label={msg('fields.device.type')} value={filters.type} options={distinctValues(list.items, 'type').map((t) => [t, deviceTypeLabel(t)] as const)} onChange={(v) => set('type', v)} />
        <FilterSelect id="dev-site" label={msg('fields.device.site')} all={msg('devices.status.all')} value={filters.site} options={distinctValues(list.items, 'site').map((x) => [x, x] as const)} onChange={(v) => set('site', v)} />
      </form>
      {list.error && !list.data ? (
        <ErrorState error={list.error} onRetry={() => void list.mutate()} />
      ) : list.isLoading ? (
        <LoadingState />
      ) : list.items.length === 0 ? (
        <EmptyState>{msg('devices.status.noDevicesRegistered')}</EmptyState>
      ) : (
        <>
          <p className="muted small" aria-live="polite">
            {msg('ui.lists.showing')} {rows.length} {msg('devices.status.of')} {list.items.length} {msg('devices.status.devicesLoaded')}{list.hasMore ? msg('devices.status.moreLoadedOnlyNote') : ''}.
          </p>
          {rows.length === 0 && <EmptyState>{msg('devices.status.noMatches')}</EmptyState>}
          <table className="data-table responsive">
            <caption className="visually-hidden">{msg('devices.status.statusOfTheDevices')}</caption>
            <thead>
              <tr>
                {sortHeader('name', msg('devices.status.name'))}
                <th scope="col">{msg('fields.device.type')}</th>
                <th scope="col">{msg('fields.device.site')}</th>
                {sortHeader('status', msg('devices.status.status'))}
                <th scope="col">{msg('fields.device.lastHeartbeat')}</th>
                {sortHeader('availability', msg('devices.status.availability30d'), 'num')}
                {sortHeader('alarms', msg('fields.device.openAlarms'), 'num')}
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id}>
                  <td data-label={msg('devices.status.name')}>
                    <Link to={devicePath(d.id, d.tenantId)}>{d.name}</Link>
                  </td>
                  <td data-label={msg('fields.device.type')}>{deviceTypeLabel(d.type)}</td>
                  <td data-label={msg('fields.device.site')}>{d.site}</td>
                  <td data-label={msg('devices.status.status')}>
                    <DeviceStatusBadge status={d.status} />
                  </td>
                  <td data-label={msg('fields.device.lastHeartbeat')}>
                    {d.lastHeartbeatAt ? <time dateTime={d.lastHeartbeatAt}>{formatDateTime(d.lastHeartbeatAt)}</time> : '—'}
                  </td>
                  <td data-label={msg('devices.status.availability30d')} className="num">
                    {formatPercent(d.availability30d)}
                  </td>
                  <td data-label={msg('fields.device.openAlarms')} className="num">
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
