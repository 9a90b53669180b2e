/**
 * `/devices/status`: the tenant's devices with status, last heartbeat, 30-day availability (%) and
 * open alarms (active or acknowledged). Cursor pagination with "Cargar más".
 */
import { deviceTypeLabel, formatDateTime, formatPercent } from '../../shared/lib/format';
import { DeviceStatusBadge } from '../../shared/ui/badges';
import { LoadMore } from '../../shared/ui/lists';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import { useDeviceList } from './api';

export function DeviceStatusPage() {
  const list = useDeviceList();
  return (
    <section>
      <PageHeader title="Estado de dispositivos" />
      {list.error && !list.data ? (
        <ErrorState error={list.error} onRetry={() => void list.mutate()} />
      ) : list.isLoading ? (
        <LoadingState />
      ) : list.items.length === 0 ? (
        <EmptyState>No hay dispositivos registrados.</EmptyState>
      ) : (
        <>
          <table className="data-table responsive">
            <caption className="visually-hidden">Estado de los dispositivos</caption>
            <thead>
              <tr>
                <th scope="col">Nombre</th>
                <th scope="col">Tipo</th>
                <th scope="col">Sede</th>
                <th scope="col">Estado</th>
                <th scope="col">Último latido</th>
                <th scope="col" className="num">
                  Disponibilidad 30 d
                </th>
                <th scope="col" className="num">
                  Alarmas abiertas
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((d) => (
                <tr key={d.id}>
                  <td data-label="Nombre">{d.name}</td>
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
