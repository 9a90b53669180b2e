/**
 * `/` and `/dashboard/general` (docs/portal.md#screens): KPIs of the active tenant — open incidents by
 * severity, devices by status, the fleet's 30-day availability, active device alarms, active Office 365
 * alarms — the incident trend (30 days, by severity), the devices below the availability SLA target, the
 * latest open alarms and the latest incident updates. The figures come from `GET /summary` (exact for any
 * tenant size) and refresh on their own every minute and when the window regains focus. Every tile links
 * to its screen. Each block has its own loading, error (with "Reintentar") and empty state.
 */
import { useEffect } from 'react';
import { useValueAfterPaint } from '../../shared/lib/hooks';
import { markFirstScreenShown } from '../../shared/lib/first-screen';
import { Link } from 'react-router-dom';
import { DEVICE_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import { DEVICE_STATUS_LABELS, formatDateTime, formatNumber, formatPercent, SEVERITY_LABELS } from '../../shared/lib/format';
import { IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { IncidentTrendChart, PercentBarChart } from '../../shared/ui/charts';
import { EmptyState, ErrorState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { incidentTrend, latestUpdates, OPEN_STATUSES, trendTotal, useLatestOpenAlarms, useRecentIncidents, useSummary } from './api';
import { ticketPath } from '../../shared/lib/links';
import { t as msg } from '../../shared/lib/messages';
import { LatestAlarms } from './LatestAlarms';
import { Block, type Loadable } from './Block';

/** `/dashboard/general`: the tenant's figures, charts and latest open alarms. */
export function DashboardPage() {
  const summary = useSummary();
  const recent = useRecentIncidents();
  const alarms = useLatestOpenAlarms();
  const s = summary.data;
  // The two charts render in a pass of their own once the figures are on the screen (`useValueAfterPaint`):
  // drawing them is most of the dashboard's rendering work, and the figures need not wait for it — also at the
  // dashboard's first render, when the sign-in's prefetch has put the summary in SWR's cache already
  // (docs/portal.md#sign-in-to-dashboard).
  const c = useValueAfterPaint(s, null);
  const charts: Loadable = { ...summary, data: c };
  // The figures (or the error) are on the screen: a sign-in's held steps may go on (shared/lib/first-screen.ts).
  const settled = s !== undefined || summary.error !== undefined;
  useEffect(() => {
    if (settled) markFirstScreenShown();
  }, [settled]);

  return (
    <section className="dashboard">
      <PageHeader title={msg('menu.dashboard')} />
      <div className="kpi-grid">
        <section className="card" aria-labelledby="kpi-incidents">
          <h2 id="kpi-incidents">{msg('dashboard.page.openIncidentsBySeverity')}</h2>
          <Block swr={summary}>
            {() => (
              <>
                <ul className="tiles">
                  {SEVERITIES.map((sev) => (
                    <li key={sev}>
                      <Link to={`/incidents/all?status=${encodeURIComponent(OPEN_STATUSES)}&severity=${sev}`} className={`tile tile-sev-${sev}`}>
                        <span className="tile-value">{formatNumber(s!.incidents.openBySeverity[sev])}</span>
                        <span className="tile-label">{SEVERITY_LABELS[sev]}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
                <p className="muted small">
                  {formatNumber(s!.incidents.open)} {msg('dashboard.page.openIncidents')} <Link to="/incidents/all">{msg('dashboard.page.viewIncidents')}</Link>
                </p>
              </>
            )}
          </Block>
        </section>

        <section className="card" aria-labelledby="kpi-devices">
          <h2 id="kpi-devices">{msg('dashboard.page.devicesByStatus')}</h2>
          <Block swr={summary}>
            {() => (
              <>
                <ul className="tiles">
                  {DEVICE_STATUSES.map((st) => (
                    <li key={st}>
                      <Link to={`/devices/status?status=${st}`} className={`tile tile-dev-${st}`}>
                        <span className="tile-value">{formatNumber(s!.devices.byStatus[st])}</span>
                        <span className="tile-label">{DEVICE_STATUS_LABELS[st]}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
                <p className="muted small">
                  {formatNumber(s!.devices.total)} {msg('dashboard.page.devices')} <Link to="/devices/status">{msg('dashboard.page.viewStatus')}</Link>
                </p>
              </>
            )}
          </Block>
        </section>

        <section className="card" aria-labelledby="kpi-more">
          <h2 id="kpi-more">{msg('dashboard.page.availabilityAndAlarms')}</h2>
          <ul className="tiles tiles-wide">
            <li>
              <Link to="/devices/availability" className="tile">
                <span className="tile-value" data-testid="kpi-availability">
                  {s ? formatPercent(s.availability.pct30d) : summary.error ? '—' : '…'}
                </span>
                <span className="tile-label">{msg('dashboard.page.availability30d')}</span>
              </Link>
            </li>
            <li>
              <Link to="/devices/alarms" className="tile">
                <span className="tile-value" data-testid="kpi-alarms">
                  {s ? formatNumber(s.alarms.active) : summary.error ? '—' : '…'}
                </span>
                <span className="tile-label">{msg('dashboard.page.activeAlarms')}</span>
              </Link>
            </li>
            <li>
              <Link to="/office365/alarms?status=active&range=all" className="tile">
                <span className="tile-value" data-testid="kpi-o365">
                  {s ? formatNumber(s.office365.alarmsByStatus.active) : summary.error ? '—' : '…'}
                </span>
                <span className="tile-label">{msg('dashboard.page.activeOffice365Alarms')}</span>
              </Link>
            </li>
          </ul>
          {summary.error && !s && <ErrorState error={summary.error} onRetry={() => void summary.mutate()} />}
        </section>
      </div>

      <div className="chart-grid">
        <section className="card" aria-labelledby="chart-trend">
          <h2 id="chart-trend">{msg('dashboard.page.incidentTrend')}</h2>
          <Block swr={charts} rows={5}>
            {() =>
              trendTotal(c!.days) === 0 ? (
                <EmptyState>{msg('dashboard.page.noIncidentTrend')}</EmptyState>
              ) : (
                <IncidentTrendChart points={incidentTrend(c!.days)} caption={msg('dashboard.page.incidentTrendCaption', { length: trendTotal(c!.days) })} />
              )
            }
          </Block>
        </section>
        <section className="card" aria-labelledby="chart-availability">
          <h2 id="chart-availability">{msg('dashboard.page.availabilityByDevice')}</h2>
          <Block swr={charts} rows={5}>
            {() => {
              const items = c!.availability.belowSla.map((d) => ({ name: d.name, value: d.availability30d }));
              return (
                <>
                  {items.length === 0 ? (
                    <EmptyState>{c!.devices.total === 0 ? msg('dashboard.page.noAvailabilityData') : msg('dashboard.page.allDevicesMeetTarget', { target: formatPercent(c!.availability.slaTargetPct) })}</EmptyState>
                  ) : (
                    <PercentBarChart items={items} target={c!.availability.slaTargetPct} caption={msg('dashboard.page.availabilityByDeviceCaption', { length: items.length, target: formatPercent(c!.availability.slaTargetPct) })} />
                  )}
                  <p className="small">
                    <Link to="/devices/availability">{msg('dashboard.page.viewAvailabilityByDevice')}</Link>
                  </p>
                </>
              );
            }}
          </Block>
        </section>
      </div>

      <div className="chart-grid">
        <section className="card" aria-labelledby="latest-alarms">
          <h2 id="latest-alarms">{msg('dashboard.page.latestAlarms')}</h2>
          <Block swr={alarms}>
            {() => <LatestAlarms alarms={alarms.data!.items} />}
          </Block>
        </section>
        <section className="card" aria-labelledby="latest-updates">
          <h2 id="latest-updates">{msg('dashboard.page.latestIncidentUpdates')}</h2>
          <Block swr={recent}>
            {() => {
              const latest = latestUpdates([recent.data!.items]);
              return latest.length === 0 ? (
                <EmptyState />
              ) : (
                <ul className="feed">
                  {latest.map((inc) => (
                    <li key={inc.id}>
                      <Link to={ticketPath(inc.id, inc.tenantId)}>
                        {inc.id} · {inc.title}
                      </Link>
                      <span className="feed-meta">
                        <IncidentStatusBadge status={inc.status} /> <SeverityBadge severity={inc.severity} />{' '}
                        <time dateTime={inc.updatedAt}>{formatDateTime(inc.updatedAt)}</time>
                      </span>
                    </li>
                  ))}
                </ul>
              );
            }}
          </Block>
        </section>
      </div>
    </section>
  );
}
