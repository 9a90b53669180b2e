/**
 * `/devices/detail/{id}?tenant=<t>`: one device (docs/portal.md#device-page) — its inventory (type, site,
 * address, vendor and model), status and last heartbeat; availability over 7, 30 and 90 days against the
 * SLA target and per day (90 days, chart); every alarm of the device (any state, newest first, "Cargar más");
 * and the incidents that mention the device's name. Linked from the status, availability and alarm screens.
 * A malformed id or a 404 shows "Dispositivo no encontrado.".
 */
import { Fragment } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { DeviceId } from '../../shared/lib/contract';
import { formatPercent } from '../../shared/lib/format';
import { ticketPath } from '../../shared/lib/links';
import { IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { AvailabilityChart } from '../../shared/ui/charts';
import { DataTable, ListFrame } from '../../shared/ui/lists';
import { ErrorState, LoadingState, NotFoundState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { useDevice, useDeviceAlarms, useIncidentsMentioning } from './api';
import { DEVICE_DETAIL_KEYS, DEVICE_FIELDS } from './device-fields';
import { dataColumnsOf, fieldsByKey } from '../../shared/ui/fields';
import { DEVICE_ALARM_FIELDS, DEVICE_PAGE_ALARM_KEYS } from './alarm-fields';
import { t as msg } from '../../shared/lib/messages';

/** Availability windows of the device: the API's field and the catalogue key of its label. */
const WINDOWS = [
  ['last7d', 'devices.device.window7d'],
  ['last30d', 'devices.device.window30d'],
  ['last90d', 'devices.device.window90d'],
] as const;

/** The device page's alarm table: the alarm registry's fields for one device. */
const ALARM_FIELDS = fieldsByKey(DEVICE_ALARM_FIELDS, DEVICE_PAGE_ALARM_KEYS);

/** One device's page: inventory and state, availability, its alarms and the incidents that mention it. */
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
      <Link to="/devices/status">{msg('devices.device.deviceStatus')}</Link>
    </p>
  );
  if (!wellFormed || (device.error?.code === 'NOT_FOUND' && !d)) {
    return (
      <section>
        {back}
        <PageHeader title={msg('devices.device.pageTitle', { id: id ?? '' })} />
        <NotFoundState what={msg('devices.device.device')} backTo="/devices/status" backLabel={msg('devices.device.viewAllDevices')} />
      </section>
    );
  }
  if (device.error && !d) {
    return (
      <section>
        {back}
        <PageHeader title={msg('devices.device.pageTitle', { id: id ?? '' })} />
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
        <h2>{msg('common.details')}</h2>
        <dl className="details">
          {fieldsByKey(DEVICE_FIELDS, DEVICE_DETAIL_KEYS).map((f) => (
            <Fragment key={f.key}>
              <dt>{f.label()}</dt>
              <dd>{f.detail!(d)}</dd>
            </Fragment>
          ))}
        </dl>
      </div>
      <div className="card">
        <h2 id="dev-availability">{msg('devices.device.availability')}</h2>
        <table className="data-table" aria-labelledby="dev-availability">
          <thead>
            <tr>
              <th scope="col">{msg('fields.common.period')}</th>
              <th scope="col" className="num">
                {msg('devices.device.availability')}
              </th>
              <th scope="col">{msg('devices.device.sla')}{formatPercent(d.slaTargetPct)})</th>
            </tr>
          </thead>
          <tbody>
            {WINDOWS.map(([key, label]) => {
              const w = d.availability[key];
              return (
                <tr key={key}>
                  <td>{msg(label)}</td>
                  <td className="num">{formatPercent(w.availablePct)}</td>
                  <td>{w.meetsSla === null ? msg('common.noData') : w.meetsSla ? msg('devices.device.met') : msg('devices.device.notMet')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <AvailabilityChart points={d.daily} slaTargetPct={d.slaTargetPct} caption={msg('devices.device.dailyAvailability90Days')} />
      </div>
      <div className="card">
        <h2>{msg('devices.device.alarms')}</h2>
        <ListFrame list={alarms} empty={msg('devices.device.noAlarms')}>
          <DataTable caption={msg('devices.device.alarmsOfTheDevice')} rows={alarms.items} rowKey={(a) => a.id} columns={dataColumnsOf(ALARM_FIELDS)} />
        </ListFrame>
      </div>
      <div className="card">
        <h2>{msg('devices.device.mentioningIncidents')}</h2>
        <ListFrame list={incidents} empty={msg('devices.device.noMentioningIncidents')}>
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
