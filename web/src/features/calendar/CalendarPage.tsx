/**
 * `/calendar` (docs/portal.md#screens): the tenant's incidents (by creation date) and device alarms (by raised date)
 * on a month calendar, Monday first, in the browser's time zone. `?month=YYYY-MM` picks the month
 * (default: the current one); "Mes anterior"/"Mes siguiente" move it. Each day's count comes from
 * `GET /summary` for the month's days (exact for any tenant size; counted per UTC day), and the day's first
 * items and the list under the calendar from the first page of the month's incidents and alarms (at most
 * `MONTH_PAGE` each, with a link to the full lists when there are more). On phones each day shows only
 * its count.
 */
import { Link, useSearchParams } from 'react-router-dom';
import { formatDateTime, formatLocale } from '../../shared/lib/format';
import { useTenant, useTenantQuery } from '../../shared/lib/tenant';
import { SeverityBadge } from '../../shared/ui/badges';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import { useApiSWR } from '../../shared/lib/api-context';
import '../../shared/ui/screens.css';
import { byDay, dayKey, monthGrid, monthKey, parseMonth } from './month';
import { ticketPath } from '../../shared/lib/links';
import { t as msg } from '../../shared/lib/messages';

/** Items of each list read for the month (one page). */
export const MONTH_PAGE = 100;

/** The week's days, Monday first (catalogue keys under `calendar.page.weekdays`). */
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export function CalendarPage() {
  const [params, setParams] = useSearchParams();
  const now = new Date();
  const { year, month } = parseMonth(params.get('month')) ?? { year: now.getFullYear(), month: now.getMonth() };
  const grid = monthGrid(year, month);
  const tenant = useTenantQuery();
  // The month's own days (the neighbouring months' days in the grid stay empty, as their items are not read).
  const firstDay = dayKey(new Date(year, month, 1));
  const lastDay = dayKey(new Date(year, month + 1, 0));
  // Asked once the active tenant is known (not once without it and again with it).
  const { activeTenant, isLoading: tenantLoading } = useTenant();
  const ready = !tenantLoading && activeTenant !== null;
  const summary = useApiSWR('getSummary', ready ? { query: { ...tenant, from: firstDay, to: lastDay } } : null);
  const incidents = useApiSWR('listIncidents', ready ? { query: { ...tenant, from: grid.from, to: grid.to, sort: 'oldest', limit: MONTH_PAGE } } : null);
  const alarms = useApiSWR('listAlarms', ready ? { query: { ...tenant, from: grid.from, to: grid.to, limit: MONTH_PAGE } } : null);
  const dayCount = new Map((summary.data?.days ?? []).map((d) => [d.date, [...Object.values(d.incidentsCreated), ...Object.values(d.alarmsRaised)].reduce((a, b) => a + b, 0)]));
  const more = !!(incidents.data?.nextCursor ?? alarms.data?.nextCursor);
  const title = new Date(year, month, 1).toLocaleDateString(formatLocale(), { month: 'long', year: 'numeric' });
  const go = (delta: number) => setParams({ month: monthKey(new Date(year, month + delta, 1)) }, { replace: true });
  const error = incidents.error ?? alarms.error ?? summary.error;
  const incByDay = byDay(incidents.data?.items ?? [], (i) => i.createdAt);
  const alByDay = byDay(alarms.data?.items ?? [], (a) => a.raisedAt);
  const today = dayKey(now);

  return (
    <section>
      <PageHeader title={msg('chrome.calendar')}>
        <button type="button" className="btn" onClick={() => go(-1)}>
          {msg('calendar.page.previousMonth')}
        </button>
        <button type="button" className="btn" onClick={() => go(1)}>
          {msg('calendar.page.nextMonth')}
        </button>
      </PageHeader>
      <h2 className="calendar-title">{title.charAt(0).toUpperCase() + title.slice(1)}</h2>
      {error && !(incidents.data && alarms.data && summary.data) ? (
        <ErrorState
          error={error}
          onRetry={() => {
            void incidents.mutate();
            void alarms.mutate();
            void summary.mutate();
          }}
        />
      ) : !incidents.data || !alarms.data || !summary.data ? (
        <LoadingState rows={6} />
      ) : (
        <>
          <div className="card">
            <table className="calendar">
              <caption className="visually-hidden">{msg('calendar.page.incidentsAndAlarmsOf')} {title}</caption>
              <thead>
                <tr>
                  {WEEKDAYS.map((d) => (
                    <th key={d} scope="col">
                      {msg(`calendar.page.weekdays.${d}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {grid.weeks.map((week) => (
                  <tr key={dayKey(week[0]!)}>
                    {week.map((d) => {
                      const k = dayKey(d);
                      const inc = incByDay.get(k) ?? [];
                      const al = alByDay.get(k) ?? [];
                      const n = Math.max(dayCount.get(k) ?? 0, inc.length + al.length);
                      const shown = Math.min(inc.length, 3) + Math.min(al.length, 2);
                      return (
                        <td key={k} className={d.getMonth() === month ? (k === today ? 'today' : '') : 'other-month'}>
                          <span className="day-number">{d.getDate()}</span>
                          {n > 0 && <span className="day-count">{n === 1 ? '1 evento' : `${n} eventos`}</span>}
                          <ul>
                            {inc.slice(0, 3).map((i) => (
                              <li key={i.id}>
                                <Link to={ticketPath(i.id, i.tenantId)} title={i.title}>
                                  {i.id}
                                </Link>
                              </li>
                            ))}
                            {al.slice(0, 2).map((a) => (
                              <li key={`${a.deviceId}/${a.id}`} title={`${a.title} · ${a.deviceName ?? a.deviceId}`}>
                                {msg('calendar.page.alarm')} {a.title}
                              </li>
                            ))}
                            {n > shown && <li>+{n - shown} {msg('calendar.page.more')}</li>}
                          </ul>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <section className="card" aria-labelledby="cal-list">
            <h2 id="cal-list">{msg('calendar.page.eventsOfTheMonth')}</h2>
            {incidents.data.items.length + alarms.data.items.length === 0 ? (
              <EmptyState>{msg('calendar.page.emptyMonth')}</EmptyState>
            ) : (
              <ul className="feed">
                {[
                  ...incidents.data.items.map((i) => ({ key: `i-${i.id}`, at: i.createdAt, node: <Link to={ticketPath(i.id, i.tenantId)}>{msg('calendar.page.incident')} {i.id} · {i.title}</Link>, sev: i.severity })),
                  ...alarms.data.items.map((a) => ({ key: `a-${a.deviceId}/${a.id}`, at: a.raisedAt, node: <span>{msg('calendar.page.alarm')} {a.title} · {a.deviceName ?? a.deviceId}</span>, sev: a.severity })),
                ]
                  .sort((a, b) => a.at.localeCompare(b.at))
                  .map((e) => (
                    <li key={e.key}>
                      {e.node}
                      <span className="feed-meta">
                        <SeverityBadge severity={e.sev} /> <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                      </span>
                    </li>
                  ))}
              </ul>
            )}
            {more && (
              <p className="small" data-testid="calendar-more">
                {msg('calendar.page.firstItemsOnly', { n: MONTH_PAGE })} <Link to="/incidents/all">{msg('calendar.page.viewAllIncidents')}</Link> ·{' '}
                <Link to="/devices/alarms">{msg('calendar.page.viewAllAlarms')}</Link>
              </p>
            )}
          </section>
        </>
      )}
    </section>
  );
}
