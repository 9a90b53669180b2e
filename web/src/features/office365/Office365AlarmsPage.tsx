/**
 * `/office365/alarms` (docs/portal.md#screens): the Office 365 alerts reported by the SOC, newest first, with a time
 * range, severity, status and user filters; each links the incident opened for it or offers "Abrir incidente",
 * and an active one "Reconocer" (docs/api.md#acknowledging-office-365-alerts).
 */
import { useMemo } from 'react';
import type { Office365Alarm } from '../../shared/lib/contract';
import { AcknowledgeCell } from './AcknowledgeCell';
import { O365_ALARM_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import { formatDateTime, SEVERITY_LABELS } from '../../shared/lib/format';
import { useTimeOfChange } from '../../shared/lib/hooks';
import { Badge } from '../../shared/ui/states';
import { SeverityBadge } from '../../shared/ui/badges';
import { PageHeader } from '../../shared/ui/states';
import { AlarmIncidentCell } from '../../shared/ui/AlarmIncidentCell';
import '../../shared/ui/screens.css';
import { alarmsQuery, RANGES, rangeOf, useAcknowledgeO365, useO365Alarms } from './api';
import { DataTable, FilterSelect, FilterText, ListFrame, useFilterParams } from '../../shared/ui/lists';
import { RowActionNoticeView, useRowAction } from '../../shared/ui/useRowAction';
import { enumLabel } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';

/** The tenant's Office 365 alerts, filtered and paged, with their incident and acknowledgement. */
export function Office365AlarmsPage() {
  const { params, set } = useFilterParams();
  const key = params.toString();
  // `from` is recomputed only when the filters change (a stable SWR key while paging).
  const changedAt = useTimeOfChange(key);
  const query = useMemo(() => alarmsQuery(new URLSearchParams(key), changedAt), [key, changedAt]);
  const list = useO365Alarms(query);
  const acknowledge = useAcknowledgeO365();
  const { busy, notice, run } = useRowAction(list);
  const onAck = (a: Office365Alarm) => run(a.id, () => acknowledge(a), msg('office365.pages.alertAcknowledged', { title: a.title }));
  return (
    <section>
      <PageHeader title={msg('office365.pages.office365Alarms')} />
      <form className="card filters" aria-label={msg('office365.pages.filterOffice365Alarms')} onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="o365a-range" label={msg('fields.common.period')} value={rangeOf(params)} all={null} options={Object.entries(RANGES)} onChange={(v) => set('range', v)} />
        <FilterSelect id="o365a-severity" label={msg('fields.alarm.severity')} all={msg('office365.pages.all')} value={String(query.severity ?? '')} options={SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]] as const)} onChange={(v) => set('severity', v)} />
        <FilterSelect id="o365a-status" label={msg('office365.pages.status')} value={String(query.status ?? '')} options={O365_ALARM_STATUSES.map((s) => [s, enumLabel('o365AlertStatus', s)] as const)} onChange={(v) => set('status', v)} />
        <FilterText id="o365a-user" label={msg('office365.pages.affectedUser')} placeholder={msg('office365.pages.userDomainExact')} value={query.user ?? ''} onApply={(v) => set('user', v)} />
      </form>
      <RowActionNoticeView notice={notice} />
      <ListFrame list={list} empty={msg('office365.pages.noAlarmsInPeriod')}>
        <DataTable
          caption={msg('office365.pages.office365Alarms')}
          rows={list.items}
          rowKey={(a) => a.id}
          columns={[
            { label: msg('fields.alarm.title'), cell: (a) => a.title },
            { label: msg('fields.alarm.severity'), cell: (a) => <SeverityBadge severity={a.severity} /> },
            { label: msg('office365.pages.status'), cell: (a) => <Badge tone={`o365-${a.status}`}>{enumLabel('o365AlertStatus', a.status)}</Badge> },
            { label: msg('office365.pages.category'), cell: (a) => a.category },
            { label: msg('office365.pages.affectedUser'), cell: (a) => a.affectedUser ?? '—' },
            { label: msg('office365.pages.detected'), cell: (a) => <time dateTime={a.detectedAt}>{formatDateTime(a.detectedAt)}</time> },
            { label: msg('office365.pages.acknowledgement'), cell: (a) => <AcknowledgeCell alarm={a} busy={busy === a.id} disabled={busy !== null} onAcknowledge={(x) => void onAck(x)} /> },
            {
              label: msg('ui.alarmIncident.incident'),
              cell: (a) => (
                <AlarmIncidentCell
                  alarm={{ kind: 'office365', id: a.id, tenantId: a.tenantId, title: a.title, severity: a.severity, name: a.affectedUser, at: a.detectedAt }}
                  incidentId={a.incidentId}
                />
              ),
            },
          ]}
        />
      </ListFrame>
    </section>
  );
}
