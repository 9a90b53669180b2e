/**
 * `/devices/status`: the tenant's devices with status, last heartbeat, 30-day availability (%) and
 * open alarms (active or acknowledged). Cursor pagination with "Cargar más". Status, type and site filters
 * (in the address) and column order apply to the loaded devices (docs/portal.md#device-list-filters).
 */
import { useState } from 'react';
import { DEVICE_STATUSES } from '../../shared/lib/contract';
import { DEVICE_STATUS_LABELS, deviceTypeLabel } from '../../shared/lib/format';
import { FilterSelect, LoadMore, SortableHeader, useFilterParams } from '../../shared/ui/lists';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { cellClassOf, headerClassOf } from '../../shared/ui/fields';
import { useDeviceList } from './api';
import { DEVICE_LIST_FIELDS } from './device-fields';
import { deviceFiltersFrom, distinctValues, filterDevices, sortDevices, type DeviceSort, type DeviceSortKey } from './filters';
import { t as msg } from '../../shared/lib/messages';

/** The list columns whose header re-orders the loaded devices, by field key. */
const SORT_KEYS: Partial<Record<string, DeviceSortKey>> = { name: 'name', status: 'status', availability30d: 'availability', openAlarms: 'alarms' };

export function DeviceStatusPage() {
  const list = useDeviceList();
  const { params, set } = useFilterParams();
  const filters = deviceFiltersFrom(params);
  const [sort, setSort] = useState<DeviceSort | null>(null);
  const filtered = filterDevices(list.items, filters);
  const rows = sort ? sortDevices(filtered, sort) : filtered;
  return (
    <section>
      <PageHeader title={msg('devices.status.deviceStatus')} />
      <form className="card filters" aria-label={msg('devices.status.filterDevices')} onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="dev-status" label={msg('fields.device.status')} value={filters.status} options={DEVICE_STATUSES.map((st) => [st, DEVICE_STATUS_LABELS[st]] as const)} onChange={(v) => set('status', v)} />
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
                {DEVICE_LIST_FIELDS.map((f) => {
                  const className = headerClassOf(f);
                  const sortKey = SORT_KEYS[f.key];
                  return sortKey ? (
                    <SortableHeader key={f.key} sortKey={sortKey} label={f.label()} sort={sort} onSort={setSort} className={className} />
                  ) : (
                    <th key={f.key} scope="col" className={className}>
                      {f.label()}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id}>
                  {DEVICE_LIST_FIELDS.map((f) => (
                    <td key={f.key} data-label={f.label()} className={cellClassOf(f)}>
                      {f.cell!(d)}
                    </td>
                  ))}
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
