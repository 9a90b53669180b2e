/**
 * `/devices/detail/{id}?tenant=<t>`: one device (docs/portal.md#device-page) — its inventory (type, site,
 * address, vendor and model), status and last heartbeat; availability over 7, 30 and 90 days against the
 * SLA target and per day (90 days, chart); every alarm of the device (any state, newest first, "Cargar más");
 * and the incidents that mention the device's name. Linked from the status, availability and alarm screens.
 * A malformed id or a 404 shows "Dispositivo no encontrado.".
 */
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { DeviceId } from '../../shared/lib/contract';
import { deviceTypeLabel, formatDateTime, formatPercent } from '../../shared/lib/format';
import { ticketPath } from '../../shared/lib/links';
import { AlarmStateBadge, DeviceStatusBadge, IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { AvailabilityChart } from '../../shared/ui/charts';
import { ListFrame } from '../../shared/ui/lists';
import { ErrorState, LoadingState, NotFoundState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { useDevice, useDeviceAlarms, useIncidentsMentioning } from './api';

const WINDOWS = [
  ['last7d', '7 días'],
  ['last30d', '30 días'],
  ['last90d', '90 días'],
] as const;

export function DevicePage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const urlTenant = params.get('tenant');
  const wellFormed = DeviceId.safeParse(id).success;
  const device = useDevice(wellFormed ? (id ?? null) : null, urlTenant);
  const d = device.data;
  const alarms = useDeviceAlarms(d ? d.id : null, urlTenant);
  const incidents = useIncidentsMentioning(d ? d.name : null, urlTenant);

  const back = (
    <p className="breadcrumb">
      <Link to="/devices/status">← Estado de dispositivos</Link>
    </p>
  );
  if (!wellFormed || (device.error?.code === 'NOT_FOUND' && !d)) {
    return (
      <section>
        {back}
        <PageHeader title={`Dispositivo ${id ?? ''}`} />
        <NotFoundState what="Dispositivo" backTo="/devices/status" backLabel="Ver todos los dispositivos" />
      </section>
    );
  }
  if (device.error && !d) {
    return (
      <section>
        {back}
        <PageHeader title={`Dispositivo ${id ?? ''}`} />
        <ErrorState error={device.error} onRetry={() => void device.mutate()} />
      </section>
    );
  }
  if (!d) return <LoadingState />;
  return (
    <section>
      {back}
      <PageHeader title={d.name} />
      <div className="card">
        <h2>Detalles</h2>
        <dl className="details">
          <dt>Estado</dt>
          <dd>
            <DeviceStatusBadge status={d.status} />
          </dd>
          <dt>Último latido</dt>
          <dd>{d.lastHeartbeatAt ? <time dateTime={d.lastHeartbeatAt}>{formatDateTime(d.lastHeartbeatAt)}</time> : '—'}</dd>
          <dt>Tipo</dt>
          <dd>{deviceTypeLabel(d.type)}</dd>
          <dt>Sede</dt>
          <dd>{d.site}</dd>
          <dt>Dirección IP</dt>
          <dd>{d.ipAddress}</dd>
          <dt>Fabricante y modelo</dt>
          <dd>
            {d.vendor} {d.model}
          </dd>
          <dt>Alarmas abiertas</dt>
          <dd>{d.openAlarms}</dd>
        </dl>
      </div>
      <div className="card">
        <h2 id="dev-availability">Disponibilidad</h2>
        <table className="data-table" aria-labelledby="dev-availability">
          <thead>
            <tr>
              <th scope="col">Periodo</th>
              <th scope="col" className="num">
                Disponibilidad
              </th>
              <th scope="col">SLA ({formatPercent(d.slaTargetPct)})</th>
            </tr>
          </thead>
          <tbody>
            {WINDOWS.map(([key, label]) => {
              const w = d.availability[key];
              return (
                <tr key={key}>
                  <td>{label}</td>
                  <td className="num">{formatPercent(w.availablePct)}</td>
                  <td>{w.meetsSla === null ? 'Sin datos' : w.meetsSla ? 'Cumple' : 'No cumple'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <AvailabilityChart points={d.daily} slaTargetPct={d.slaTargetPct} caption="Disponibilidad diaria (90 días)" />
      </div>
      <div className="card">
        <h2>Alarmas</h2>
        <ListFrame list={alarms} empty="Este dispositivo no tiene alarmas.">
          <table className="data-table responsive">
            <caption className="visually-hidden">Alarmas del dispositivo</caption>
            <thead>
              <tr>
                <th scope="col">Alarma</th>
                <th scope="col">Severidad</th>
                <th scope="col">Estado</th>
                <th scope="col">Detectada</th>
                <th scope="col">Reconocida</th>
              </tr>
            </thead>
            <tbody>
              {alarms.items.map((a) => (
                <tr key={a.id}>
                  <td data-label="Alarma">{a.title}</td>
                  <td data-label="Severidad">
                    <SeverityBadge severity={a.severity} />
                  </td>
                  <td data-label="Estado">
                    <AlarmStateBadge state={a.state} />
                  </td>
                  <td data-label="Detectada">
                    <time dateTime={a.raisedAt}>{formatDateTime(a.raisedAt)}</time>
                  </td>
                  <td data-label="Reconocida">{a.acknowledgedAt ? `${formatDateTime(a.acknowledgedAt)}${a.acknowledgedBy ? ` · ${a.acknowledgedBy}` : ''}` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ListFrame>
      </div>
      <div className="card">
        <h2>Incidentes que mencionan el dispositivo</h2>
        <ListFrame list={incidents} empty="Ningún incidente menciona este dispositivo.">
          <ul className="related-list">
            {incidents.items.map((i) => (
              <li key={i.id}>
                <Link to={ticketPath(i.id, i.tenantId)}>{i.id}</Link> {i.title} <SeverityBadge severity={i.severity} /> <IncidentStatusBadge status={i.status} />
              </li>
            ))}
          </ul>
        </ListFrame>
      </div>
    </section>
  );
}
