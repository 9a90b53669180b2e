/**
 * `/office365/alarms` and `/office365/events` (docs/portal.md#screens): Office 365 alerts reported by the SOC and the
 * unified audit log of the tenant, newest first, with a time range (24 h / 7 / 30 days / all) and
 * severity + status (alerts) or workload + result (events) filters, and the user filter (exact match, as the API
 * matches it); cursor pages ("Cargar más").
 */
import { useMemo } from 'react';
import { O365_ALARM_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import { formatDateTime, SEVERITY_LABELS } from '../../shared/lib/format';
import { useTimeOfChange } from '../../shared/lib/hooks';
import { Badge } from '../../shared/ui/states';
import { SeverityBadge } from '../../shared/ui/badges';
import { PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { alarmsQuery, eventsQuery, O365_STATUS_LABELS, RANGES, rangeOf, RESULT_LABELS, RESULTS, useO365Alarms, useO365Events, WORKLOADS } from './api';
import { FilterSelect, FilterText, ListFrame, useFilterParams } from '../../shared/ui/lists';


export function Office365AlarmsPage() {
  const { params, set } = useFilterParams();
  const key = params.toString();
  // `from` is recomputed only when the filters change (a stable SWR key while paging).
  const changedAt = useTimeOfChange(key);
  const query = useMemo(() => alarmsQuery(new URLSearchParams(key), changedAt), [key, changedAt]);
  const list = useO365Alarms(query);
  return (
    <section>
      <PageHeader title="Alarmas de Office 365" />
      <form className="card filters" aria-label="Filtrar alarmas de Office 365" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="o365a-range" label="Periodo" value={rangeOf(params)} all={null} options={Object.entries(RANGES)} onChange={(v) => set('range', v)} />
        <FilterSelect id="o365a-severity" label="Severidad" all="Todas" value={String(query.severity ?? '')} options={SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]] as const)} onChange={(v) => set('severity', v)} />
        <FilterSelect id="o365a-status" label="Estado" value={String(query.status ?? '')} options={O365_ALARM_STATUSES.map((s) => [s, O365_STATUS_LABELS[s] ?? s] as const)} onChange={(v) => set('status', v)} />
        <FilterText id="o365a-user" label="Usuario afectado" placeholder="usuario@dominio (exacto)" value={query.user ?? ''} onApply={(v) => set('user', v)} />
      </form>
      <ListFrame list={list} empty="No hay alarmas de Office 365 en este periodo.">
        <table className="data-table responsive">
          <caption className="visually-hidden">Alarmas de Office 365</caption>
          <thead>
            <tr>
              <th scope="col">Alarma</th>
              <th scope="col">Severidad</th>
              <th scope="col">Estado</th>
              <th scope="col">Categoría</th>
              <th scope="col">Usuario afectado</th>
              <th scope="col">Detectada</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((a) => (
              <tr key={a.id}>
                <td data-label="Alarma">{a.title}</td>
                <td data-label="Severidad">
                  <SeverityBadge severity={a.severity} />
                </td>
                <td data-label="Estado">
                  <Badge tone={`o365-${a.status}`}>{O365_STATUS_LABELS[a.status] ?? a.status}</Badge>
                </td>
                <td data-label="Categoría">{a.category}</td>
                <td data-label="Usuario afectado">{a.affectedUser ?? '—'}</td>
                <td data-label="Detectada">
                  <time dateTime={a.detectedAt}>{formatDateTime(a.detectedAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListFrame>
    </section>
  );
}

export function Office365EventsPage() {
  const { params, set } = useFilterParams();
  const key = params.toString();
  // `from` is recomputed only when the filters change (a stable SWR key while paging).
  const changedAt = useTimeOfChange(key);
  const query = useMemo(() => eventsQuery(new URLSearchParams(key), changedAt), [key, changedAt]);
  const list = useO365Events(query);
  return (
    <section>
      <PageHeader title="Eventos de Office 365" />
      <form className="card filters" aria-label="Filtrar eventos de Office 365" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="o365e-range" label="Periodo" value={rangeOf(params)} all={null} options={Object.entries(RANGES)} onChange={(v) => set('range', v)} />
        <FilterSelect id="o365e-workload" label="Servicio" value={String(query.workload ?? '')} options={WORKLOADS.map((w) => [w, w] as const)} onChange={(v) => set('workload', v)} />
        <FilterSelect id="o365e-result" label="Resultado" value={String(query.result ?? '')} options={RESULTS.map((r) => [r, RESULT_LABELS[r] ?? r] as const)} onChange={(v) => set('result', v)} />
        <FilterText id="o365e-user" label="Usuario" placeholder="usuario@dominio (exacto)" value={query.user ?? ''} onApply={(v) => set('user', v)} />
      </form>
      <ListFrame list={list} empty="No hay eventos de Office 365 en este periodo.">
        <table className="data-table responsive">
          <caption className="visually-hidden">Eventos de Office 365</caption>
          <thead>
            <tr>
              <th scope="col">Fecha</th>
              <th scope="col">Servicio</th>
              <th scope="col">Operación</th>
              <th scope="col">Usuario</th>
              <th scope="col">Resultado</th>
              <th scope="col">IP de origen</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((e) => (
              <tr key={e.id}>
                <td data-label="Fecha">
                  <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                </td>
                <td data-label="Servicio">{e.workload}</td>
                <td data-label="Operación">{e.operation}</td>
                <td data-label="Usuario">{e.user}</td>
                <td data-label="Resultado">{RESULT_LABELS[e.result] ?? e.result}</td>
                <td data-label="IP de origen">{e.clientIp ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListFrame>
    </section>
  );
}
