/**
 * `/devices/alarms` (docs/portal.md#screens): device alarms of the tenant, newest first, filtered by state, severity
 * and device (`GET /alarms`), with "Reconocer" on active alarms (`POST …/acknowledge`); cursor pages
 * ("Cargar más"). Filters live in the URL (`?state=active&severity=high&device=<id>`). Each row shows the
 * device's name the alarm carries (`deviceName`, kept in sync on rename: docs/data-model.md#alarm-device-names),
 * so a page reads no device; the device filter is `DevicePicker` (a name search on the server). The "Incidente"
 * column links the incident opened for the alarm, or offers "Abrir incidente" (docs/portal.md#linked-alarms).
 */
import { ALARM_STATES, SEVERITIES } from '../../shared/lib/contract';
import type { DeviceAlarm } from '../../shared/lib/contract';
import { ALARM_STATE_LABELS, SEVERITY_LABELS } from '../../shared/lib/format';
import { DataTable, FilterSelect, ListFrame, useFilterParams } from '../../shared/ui/lists';
import { RowActionNoticeView, useRowAction } from '../../shared/ui/useRowAction';
import { PageHeader } from '../../shared/ui/states';
import { dataColumnsOf } from '../../shared/ui/fields';
import '../../shared/ui/screens.css';
import { useAcknowledge, useAlarmList } from './api';
import { canOperate, useTenant } from '../../shared/lib/tenant';
import { DevicePicker } from './DevicePicker';
import { alarmDeviceName, DEVICE_ALARM_FIELDS } from './alarm-fields';
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

/** An alarm's key in the list (alarm ids are per device): `<deviceId>/<id>`. */
const alarmKey = (a: DeviceAlarm): string => `${a.deviceId}/${a.id}`;

/** The tenant's device alarms: filters, the list (columns of `DEVICE_ALARM_FIELDS`) and "Reconocer". */
export function DeviceAlarmsPage() {
  const { params, set: setFilter } = useFilterParams();
  const query = alarmQuery(params);
  const list = useAlarmList(query);
  const acknowledge = useAcknowledge();
  // A viewer cannot acknowledge (docs/api.md#customer-roles): the button is hidden, not disabled.
  const operator = canOperate(useTenant().me);
  const { busy, notice, run } = useRowAction(list);
  const onAck = (a: DeviceAlarm) => run(alarmKey(a), () => acknowledge(a), msg('devices.alarms.alarmAcknowledged', { title: a.title }));

  return (
    <section>
      <PageHeader title={msg('devices.alarms.deviceAlarms')} />
      <form className="card filters" aria-label={msg('devices.alarms.filterAlarms')} onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="al-state" label={msg('fields.alarm.state')} value={String(query.state ?? '')} options={ALARM_STATES.map((s) => [s, ALARM_STATE_LABELS[s]] as const)} onChange={(v) => setFilter('state', v)} />
        <FilterSelect id="al-severity" label={msg('fields.alarm.severity')} all={msg('devices.alarms.all')} value={String(query.severity ?? '')} options={SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]] as const)} onChange={(v) => setFilter('severity', v)} />
        <DevicePicker id="al-device" label={msg('fields.alarm.device')} value={String(query.deviceId ?? '')} selectedName={list.items.find((a) => a.deviceId === query.deviceId)?.deviceName} allLabel={msg('devices.picker.allDevices')} onChange={(v) => setFilter('device', v)} />
      </form>
      <RowActionNoticeView notice={notice} />
      <ListFrame list={list} empty={Object.keys(query).length ? msg('devices.alarms.noMatches') : msg('devices.alarms.noAlarmsRecorded')}>
        <DataTable
          caption={msg('devices.alarms.alarmList')}
          rows={list.items}
          rowKey={alarmKey}
          columns={[
            ...dataColumnsOf(DEVICE_ALARM_FIELDS),
            {
              label: msg('fields.common.actions'),
              hiddenLabel: true,
              cell: (a) =>
                a.state === 'active' && operator ? (
                  <button type="button" className="btn" disabled={busy !== null} onClick={() => void onAck(a)} aria-label={msg('devices.alarms.acknowledgeAlarmOf', { title: a.title, device: alarmDeviceName(a) })}>
                    {busy === alarmKey(a) ? msg('actions.acknowledging') : msg('actions.acknowledge')}
                  </button>
                ) : null,
            },
          ]}
        />
      </ListFrame>
    </section>
  );
}
