/**
 * `/devices/alarms` (docs/portal.md#screens): device alarms of the tenant, newest first, filtered by state, severity
 * and device (`GET /alarms`), with "Reconocer" on active alarms (`POST …/acknowledge`); cursor pages
 * ("Cargar más"). Filters live in the URL (`?state=active&severity=high&device=<id>`).
 */
import { Link } from 'react-router-dom';
import { devicePath } from '../../shared/lib/links';
import { useState } from 'react';
import { ALARM_STATES, SEVERITIES } from '../../shared/lib/contract';
import type { DeviceAlarm } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import { formatDateTime, SEVERITY_LABELS } from '../../shared/lib/format';
import { ALARM_STATE_LABELS, AlarmStateBadge, SeverityBadge } from '../../shared/ui/badges';
import { FilterSelect, ListFrame, useFilterParams } from '../../shared/ui/lists';
import { PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { useAcknowledge, useAlarmList, useAllDevices } from './api';
import type { AlarmFilters } from './api';

/** URL search parameters → `GET /alarms` filters (unknown values dropped). */
export function alarmQuery(params: URLSearchParams): AlarmFilters {
  const q: AlarmFilters = {};
  const state = params.get('state');
  if (state && (ALARM_STATES as readonly string[]).includes(state)) q.state = state;
  const severity = params.get('severity');
  if (severity && (SEVERITIES as readonly string[]).includes(severity)) q.severity = severity;
  const device = params.get('device');
  if (device && /^[A-Za-z0-9_.-]{1,64}$/.test(device)) q.deviceId = device;
  return q;
}

export function DeviceAlarmsPage() {
  const { params, set: setFilter } = useFilterParams();
  const query = alarmQuery(params);
  const list = useAlarmList(query);
  const devices = useAllDevices();
  const acknowledge = useAcknowledge();
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const names = new Map((devices.data?.items ?? []).map((d) => [d.id, d.name]));
  const onAck = async (a: DeviceAlarm) => {
    const key = `${a.deviceId}/${a.id}`;
    setBusy(key);
    setNotice(null);
    try {
      await acknowledge(a);
      setNotice({ ok: true, text: `Alarma «${a.title}» reconocida.` });
      await list.mutate();
    } catch (err) {
      setNotice({ ok: false, text: toApiError(err).userMessage });
      await list.mutate();
    } finally {
      setBusy(null);
    }
  };

  return (
    <section>
      <PageHeader title="Alarmas de dispositivos" />
      <form className="card filters" aria-label="Filtrar alarmas" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="al-state" label="Estado" value={String(query.state ?? '')} options={ALARM_STATES.map((s) => [s, ALARM_STATE_LABELS[s]] as const)} onChange={(v) => setFilter('state', v)} />
        <FilterSelect id="al-severity" label="Severidad" all="Todas" value={String(query.severity ?? '')} options={SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]] as const)} onChange={(v) => setFilter('severity', v)} />
        <FilterSelect id="al-device" label="Dispositivo" value={String(query.deviceId ?? '')} options={(devices.data?.items ?? []).map((d) => [d.id, d.name] as const)} onChange={(v) => setFilter('device', v)} />
      </form>
      {notice && (
        <div className={notice.ok ? 'notice-ok' : 'error-state'} role={notice.ok ? 'status' : 'alert'}>
          <p>{notice.text}</p>
        </div>
      )}
      <ListFrame list={list} empty={Object.keys(query).length ? 'Ninguna alarma coincide con los filtros.' : 'No hay alarmas registradas.'}>
        <table className="data-table responsive">
          <caption className="visually-hidden">Lista de alarmas</caption>
          <thead>
            <tr>
              <th scope="col">Alarma</th>
              <th scope="col">Dispositivo</th>
              <th scope="col">Severidad</th>
              <th scope="col">Estado</th>
              <th scope="col">Activada</th>
              <th scope="col">Reconocida</th>
              <th scope="col">
                <span className="visually-hidden">Acciones</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((a) => {
              const key = `${a.deviceId}/${a.id}`;
              return (
                <tr key={key}>
                  <td data-label="Alarma">{a.title}</td>
                  <td data-label="Dispositivo">
                    <Link to={devicePath(a.deviceId, a.tenantId)}>{names.get(a.deviceId) ?? a.deviceId}</Link>
                  </td>
                  <td data-label="Severidad">
                    <SeverityBadge severity={a.severity} />
                  </td>
                  <td data-label="Estado">
                    <AlarmStateBadge state={a.state} />
                  </td>
                  <td data-label="Activada">
                    <time dateTime={a.raisedAt}>{formatDateTime(a.raisedAt)}</time>
                  </td>
                  <td data-label="Reconocida">{a.acknowledgedAt ? `${formatDateTime(a.acknowledgedAt)} · ${a.acknowledgedBy ?? ''}` : '—'}</td>
                  <td data-label="Acciones">
                    {a.state === 'active' ? (
                      <button type="button" className="btn" disabled={busy !== null} onClick={() => void onAck(a)} aria-label={`Reconocer alarma ${a.title} de ${names.get(a.deviceId) ?? a.deviceId}`}>
                        {busy === key ? 'Reconociendo…' : 'Reconocer'}
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ListFrame>
    </section>
  );
}
