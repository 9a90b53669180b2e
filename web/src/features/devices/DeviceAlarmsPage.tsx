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
import { t as msg } from '../../shared/lib/messages';

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
      setNotice({ ok: true, text: msg('devices.alarms.alarmAcknowledged', { title: a.title }) });
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
      <PageHeader title={msg('devices.alarms.deviceAlarms')} />
      <form className="card filters" aria-label={msg('devices.alarms.filterAlarms')} onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="al-state" label={msg('devices.alarms.state')} value={String(query.state ?? '')} options={ALARM_STATES.map((s) => [s, ALARM_STATE_LABELS[s]] as const)} onChange={(v) => setFilter('state', v)} />
        <FilterSelect id="al-severity" label={msg('devices.alarms.severity')} all={msg('devices.alarms.all')} value={String(query.severity ?? '')} options={SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]] as const)} onChange={(v) => setFilter('severity', v)} />
        <FilterSelect id="al-device" label={msg('devices.alarms.device')} value={String(query.deviceId ?? '')} options={(devices.data?.items ?? []).map((d) => [d.id, d.name] as const)} onChange={(v) => setFilter('device', v)} />
      </form>
      {notice && (
        <div className={notice.ok ? 'notice-ok' : 'error-state'} role={notice.ok ? 'status' : 'alert'}>
          <p>{notice.text}</p>
        </div>
      )}
      <ListFrame list={list} empty={Object.keys(query).length ? msg('devices.alarms.noAlarmMatchesThe') : msg('devices.alarms.noAlarmsRecorded')}>
        <table className="data-table responsive">
          <caption className="visually-hidden">{msg('devices.alarms.alarmList')}</caption>
          <thead>
            <tr>
              <th scope="col">{msg('devices.alarms.alarm')}</th>
              <th scope="col">{msg('devices.alarms.device')}</th>
              <th scope="col">{msg('devices.alarms.severity')}</th>
              <th scope="col">{msg('devices.alarms.state')}</th>
              <th scope="col">{msg('devices.alarms.raised')}</th>
              <th scope="col">{msg('devices.alarms.acknowledged')}</th>
              <th scope="col">
                <span className="visually-hidden">{msg('devices.alarms.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((a) => {
              const key = `${a.deviceId}/${a.id}`;
              return (
                <tr key={key}>
                  <td data-label={msg('devices.alarms.alarm')}>{a.title}</td>
                  <td data-label={msg('devices.alarms.device')}>
                    <Link to={devicePath(a.deviceId, a.tenantId)}>{names.get(a.deviceId) ?? a.deviceId}</Link>
                  </td>
                  <td data-label={msg('devices.alarms.severity')}>
                    <SeverityBadge severity={a.severity} />
                  </td>
                  <td data-label={msg('devices.alarms.state')}>
                    <AlarmStateBadge state={a.state} />
                  </td>
                  <td data-label={msg('devices.alarms.raised')}>
                    <time dateTime={a.raisedAt}>{formatDateTime(a.raisedAt)}</time>
                  </td>
                  <td data-label={msg('devices.alarms.acknowledged')}>{a.acknowledgedAt ? `${formatDateTime(a.acknowledgedAt)} · ${a.acknowledgedBy ?? ''}` : '—'}</td>
                  <td data-label={msg('devices.alarms.actions')}>
                    {a.state === 'active' ? (
                      <button type="button" className="btn" disabled={busy !== null} onClick={() => void onAck(a)} aria-label={msg('devices.alarms.acknowledgeAlarmOf', { title: a.title, v1: names.get(a.deviceId) ?? a.deviceId })}>
                        {busy === key ? msg('devices.alarms.acknowledging') : msg('devices.alarms.acknowledge')}
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
