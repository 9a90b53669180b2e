/**
 * `/soc/alarms`, "Consola de alarmas" (staff only, docs/portal.md#alarm-console, docs/api.md#alarm-console): the
 * device alarms and Office 365 alerts of every tenant, newest first, in the API's order — one Query per page on
 * the server whatever the filters. Columns: customer, kind, device/user, alarm, severity, state, raised at.
 * Filters (customer, severity, state, kind) live in the URL (`console-filters.ts`); "Cargar más" follows the
 * cursor. "Reconocer" on an open row acknowledges it through the tenant's own route, audited — a device alarm
 * with `POST /devices/{d}/alarms/{a}/acknowledge?tenant=<t>`, an Office 365 alert with
 * `POST /office365/alarms/{a}/acknowledge?tenant=<t>` (Vigía's acknowledgement beside Microsoft's status,
 * docs/api.md#acknowledging-office-365-alerts) — and reloads the loaded pages, so the row shows its new state.
 */
import { Link } from 'react-router-dom';
import { ALARM_CONSOLE_KINDS, ALARM_CONSOLE_STATES, SEVERITIES } from '../../shared/lib/contract';
import type { AlarmConsoleItem } from '../../shared/lib/contract';
import { useApi, useApiSWRInfinite } from '../../shared/lib/api-context';
import { formatDateTime, SEVERITY_LABELS } from '../../shared/lib/format';
import { devicePath } from '../../shared/lib/links';
import { useTenant } from '../../shared/lib/tenant';
import { SeverityBadge } from '../../shared/ui/badges';
import { DataTable, FilterSelect, ListFrame, useFilterParams } from '../../shared/ui/lists';
import { RowActionNoticeView, useRowAction } from '../../shared/ui/useRowAction';
import { Badge, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { ALARM_CONSOLE_STATE_LABELS, ALARM_KIND_LABELS } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';
import { consoleQuery } from './console-filters';

/** A console row's key: alarm ids are per device, alert ids per tenant. */
const rowKey = (a: AlarmConsoleItem) => `${a.tenantId}#${a.kind}#${a.deviceId ?? ''}#${a.id}`;

/** Badge tone of a state (the device alarm states' tones). */
const STATE_TONE: Record<AlarmConsoleItem['state'], string> = { open: 'alarm-active', acknowledged: 'alarm-acknowledged', cleared: 'alarm-cleared' };

export function AlarmConsolePage() {
  const { params, set } = useFilterParams();
  const { tenants } = useTenant();
  const api = useApi();
  const query = consoleQuery(params);
  const list = useApiSWRInfinite('listAlarmConsole', { query });
  const { busy, notice, run } = useRowAction(list);
  const names = new Map(tenants.map((t) => [t.id, t.name]));
  const customer = (a: AlarmConsoleItem) => names.get(a.tenantId) ?? a.tenantId;
  const subject = (a: AlarmConsoleItem) => (a.kind === 'device' ? (a.deviceName ?? a.deviceId ?? '—') : (a.affectedUser ?? '—'));
  const filtered = ['tenant', 'severity', 'state', 'kind'].some((k) => params.has(k));

  const onAck = (a: AlarmConsoleItem) =>
    run(
      rowKey(a),
      () =>
        a.kind === 'device' && a.deviceId !== null
          ? api.call('acknowledgeAlarm', { params: { deviceId: a.deviceId, alarmId: a.id }, query: { tenant: a.tenantId } })
          : api.call('acknowledgeOffice365Alarm', { params: { alarmId: a.id }, query: { tenant: a.tenantId } }),
      msg('soc.console.acknowledged', { title: a.title }),
    );

  return (
    <section>
      <PageHeader title={msg('menu.alarmConsole')} />
      <form className="card filters" role="search" aria-label={msg('soc.console.filters')} onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="ac-tenant" label={msg('fields.common.customer')} all={msg('soc.console.all')} value={query.tenant ?? ''} options={tenants.map((t) => [t.id, t.name] as const)} onChange={(v) => set('tenant', v)} />
        <FilterSelect id="ac-severity" label={msg('fields.alarm.severity')} all={msg('soc.console.allFem')} value={query.severity ?? ''} options={SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]] as const)} onChange={(v) => set('severity', v)} />
        <FilterSelect id="ac-state" label={msg('fields.alarm.state')} all={msg('soc.console.all')} value={query.state ?? ''} options={ALARM_CONSOLE_STATES.map((s) => [s, ALARM_CONSOLE_STATE_LABELS[s]] as const)} onChange={(v) => set('state', v)} />
        <FilterSelect id="ac-kind" label={msg('fields.alarm.kind')} all={msg('soc.console.all')} value={query.kind ?? ''} options={ALARM_CONSOLE_KINDS.map((k) => [k, ALARM_KIND_LABELS[k]] as const)} onChange={(v) => set('kind', v)} />
      </form>
      <RowActionNoticeView notice={notice} />
      <ListFrame list={list} empty={filtered ? msg('soc.console.noMatches') : msg('soc.console.empty')}>
        <p className="muted small" aria-live="polite">
          {msg('soc.console.showing', { count: list.items.length })}
          {list.hasMore ? msg('ui.lists.thereAreMore') : ''}
        </p>
        <DataTable
          caption={msg('soc.console.caption')}
          rows={list.items}
          rowKey={rowKey}
          columns={[
            { label: msg('fields.common.customer'), cell: customer },
            { label: msg('fields.alarm.kind'), cell: (a) => ALARM_KIND_LABELS[a.kind] },
            {
              label: msg('soc.console.subject'),
              cell: (a) => (a.kind === 'device' && a.deviceId ? <Link to={devicePath(a.deviceId, a.tenantId)}>{subject(a)}</Link> : subject(a)),
            },
            { label: msg('fields.alarm.title'), cell: (a) => a.title },
            { label: msg('fields.alarm.severity'), cell: (a) => <SeverityBadge severity={a.severity} /> },
            { label: msg('fields.alarm.state'), cell: (a) => <Badge tone={STATE_TONE[a.state]}>{ALARM_CONSOLE_STATE_LABELS[a.state]}</Badge> },
            { label: msg('fields.alarm.raisedAt'), cell: (a) => <time dateTime={a.raisedAt}>{formatDateTime(a.raisedAt)}</time> },
            {
              label: msg('fields.common.actions'),
              hiddenLabel: true,
              cell: (a) =>
                a.state === 'open' ? (
                  <button type="button" className="btn" disabled={busy !== null} onClick={() => void onAck(a)} aria-label={msg('soc.console.acknowledgeOf', { title: a.title, subject: subject(a), customer: customer(a) })}>
                    {busy === rowKey(a) ? msg('actions.acknowledging') : msg('actions.acknowledge')}
                  </button>
                ) : a.acknowledgedBy ? (
                  <span className="muted small">{msg('soc.console.acknowledgedBy', { who: a.acknowledgedBy })}</span>
                ) : null,
            },
          ]}
        />
      </ListFrame>
    </section>
  );
}
