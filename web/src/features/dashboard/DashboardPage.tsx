/**
 * `/` and `/dashboard/general` (docs/portal.md#screens): KPIs of the active tenant — open incidents by
 * severity, devices by status, mean 30-day availability, active device alarms, active Office 365 alarms
 * — the incident trend (30 days, by severity), the 10 lowest 30-day availabilities against the SLA target,
 * the latest open alarms and the latest incident updates. Every tile links to its screen. Each block has
 * its own loading, error (with "Reintentar") and empty state.
 */
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { DEVICE_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import type { DeviceAlarm } from '../../shared/lib/contract';
import type { ApiError } from '../../shared/lib/api';
import { DEVICE_STATUS_LABELS, formatDateTime, formatPercent, SEVERITY_LABELS } from '../../shared/lib/format';
import { AlarmStateBadge, IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { IncidentTrendChart, PercentBarChart } from '../../shared/ui/charts';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import {
  countBy,
  incidentTrend,
  latestUpdates,
  LOWEST_DEVICES,
  lowestAvailability,
  meanAvailability,
  trendStart,
  useAllDevices,
  useOpenAlarms,
  useOpenIncidents,
  useOpenO365Alarms,
  useRecentIncidents,
} from './api';
import { ticketPath } from '../../shared/lib/links';
import { t as msg } from '../../shared/lib/messages';

/** SLA availability target, % (contract: `DeviceDetail.slaTargetPct`; `lambdas/domain/devices.ts`). */
const SLA_TARGET_PCT = 99.5;

interface Loadable {
  error: ApiError | undefined;
  isLoading: boolean;
  data: unknown;
  mutate: () => unknown;
}

/** Renders `children` once `swr` has data; otherwise its loading or error state. */
function Block({ swr, rows = 2, children }: { swr: Loadable; rows?: number; children: () => React.ReactNode }) {
  if (swr.error && !swr.data) return <ErrorState error={swr.error} onRetry={() => void swr.mutate()} />;
  if (!swr.data) return <LoadingState rows={rows} />;
  return <>{children()}</>;
}

export function DashboardPage() {
  const start = useMemo(() => trendStart(new Date()), []);
  const open = useOpenIncidents();
  const recent = useRecentIncidents(start.toISOString());
  const devices = useAllDevices();
  const alarms = useOpenAlarms();
  const o365 = useOpenO365Alarms();
  const deviceNames = useMemo(() => new Map((devices.data?.items ?? []).map((d) => [d.id, d.name])), [devices.data]);

  return (
    <section className="dashboard">
      <PageHeader title={msg('dashboard.page.dashboard')} />
      <div className="kpi-grid">
        <section className="card" aria-labelledby="kpi-incidents">
          <h2 id="kpi-incidents">{msg('dashboard.page.openIncidentsBySeverity')}</h2>
          <Block swr={open}>
            {() => {
              const by = countBy(open.data!.items, SEVERITIES, (i) => i.severity);
              return (
                <>
                  <ul className="tiles">
                    {SEVERITIES.map((s) => (
                      <li key={s}>
                        <Link to={`/incidents/all?status=${encodeURIComponent('new,in_progress,on_hold')}&severity=${s}`} className={`tile tile-sev-${s}`}>
                          <span className="tile-value">{by[s]}</span>
                          <span className="tile-label">{SEVERITY_LABELS[s]}</span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                  <p className="muted small">
                    {open.data!.items.length}
                    {open.data!.truncated ? '+' : ''} {msg('dashboard.page.openIncidents')} <Link to="/incidents/all">{msg('dashboard.page.viewIncidents')}</Link>
                  </p>
                </>
              );
            }}
          </Block>
        </section>

        <section className="card" aria-labelledby="kpi-devices">
          <h2 id="kpi-devices">{msg('dashboard.page.devicesByStatus')}</h2>
          <Block swr={devices}>
            {() => {
              const by = countBy(devices.data!.items, DEVICE_STATUSES, (d) => d.status);
              return (
                <>
                  <ul className="tiles">
                    {DEVICE_STATUSES.map((s) => (
                      <li key={s}>
                        <Link to="/devices/status" className={`tile tile-dev-${s}`}>
                          <span className="tile-value">{by[s]}</span>
                          <span className="tile-label">{DEVICE_STATUS_LABELS[s]}</span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                  <p className="muted small">
                    {devices.data!.items.length} {msg('dashboard.page.devices')} <Link to="/devices/status">{msg('dashboard.page.viewStatus')}</Link>
                  </p>
                </>
              );
            }}
          </Block>
        </section>

        <section className="card" aria-labelledby="kpi-more">
          <h2 id="kpi-more">{msg('dashboard.page.availabilityAndAlarms')}</h2>
          <ul className="tiles tiles-wide">
            <li>
              <Link to="/devices/availability" className="tile">
                <span className="tile-value" data-testid="kpi-availability">
                  {devices.data ? formatPercent(meanAvailability(devices.data.items)) : devices.error ? '—' : '…'}
                </span>
                <span className="tile-label">{msg('dashboard.page.n30DayAvailability')}</span>
              </Link>
            </li>
            <li>
              <Link to="/devices/alarms" className="tile">
                <span className="tile-value" data-testid="kpi-alarms">
                  {alarms.data ? alarms.data.items.filter((a) => a.state === 'active').length : alarms.error ? '—' : '…'}
                </span>
                <span className="tile-label">{msg('dashboard.page.activeAlarms')}</span>
              </Link>
            </li>
            <li>
              <Link to="/office365/alarms?status=active&range=all" className="tile">
                <span className="tile-value" data-testid="kpi-o365">
                  {o365.data ? `${o365.data.items.length}${o365.data.truncated ? '+' : ''}` : o365.error ? '—' : '…'}
                </span>
                <span className="tile-label">{msg('dashboard.page.activeOffice365Alarms')}</span>
              </Link>
            </li>
          </ul>
          {(devices.error ?? alarms.error ?? o365.error) && !(devices.data && alarms.data && o365.data) && (
            <ErrorState
              error={devices.error ?? alarms.error ?? o365.error}
              onRetry={() => {
                void devices.mutate();
                void alarms.mutate();
                void o365.mutate();
              }}
            />
          )}
        </section>
      </div>

      <div className="chart-grid">
        <section className="card" aria-labelledby="chart-trend">
          <h2 id="chart-trend">{msg('dashboard.page.incidentTrend')}</h2>
          <Block swr={recent} rows={5}>
            {() =>
              recent.data!.items.length === 0 ? (
                <EmptyState>{msg('dashboard.page.noIncidentsWereOpened')}</EmptyState>
              ) : (
                <IncidentTrendChart
                  points={incidentTrend(recent.data!.items, start)}
                  caption={msg('dashboard.page.incidentsOpenedPerDay', { length: recent.data!.items.length })}
                />
              )
            }
          </Block>
        </section>
        <section className="card" aria-labelledby="chart-availability">
          <h2 id="chart-availability">{msg('dashboard.page.availabilityByDevice')}</h2>
          <Block swr={devices} rows={5}>
            {() => {
              const items = lowestAvailability(devices.data!.items, LOWEST_DEVICES);
              return items.length === 0 ? (
                <EmptyState>{msg('dashboard.page.noAvailabilityData')}</EmptyState>
              ) : (
                <>
                  <PercentBarChart items={items} target={SLA_TARGET_PCT} caption={msg('dashboard.page.theDevicesWithThe', { length: items.length, v1: formatPercent(SLA_TARGET_PCT) })} />
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
            {() => <LatestAlarms alarms={alarms.data!.items.slice(0, 5)} names={deviceNames} />}
          </Block>
        </section>
        <section className="card" aria-labelledby="latest-updates">
          <h2 id="latest-updates">{msg('dashboard.page.latestIncidentUpdates')}</h2>
          <Block swr={recent}>
            {() => {
              const latest = latestUpdates([open.data?.items ?? [], recent.data!.items]);
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

function LatestAlarms({ alarms, names }: { alarms: DeviceAlarm[]; names: Map<string, string> }) {
  if (alarms.length === 0) return <EmptyState>{msg('dashboard.page.noOpenAlarms')}</EmptyState>;
  return (
    <>
      <ul className="feed">
        {alarms.map((a) => (
          <li key={`${a.deviceId}/${a.id}`}>
            <span>
              {a.title} — {names.get(a.deviceId) ?? a.deviceId}
            </span>
            <span className="feed-meta">
              <SeverityBadge severity={a.severity} /> <AlarmStateBadge state={a.state} />{' '}
              <time dateTime={a.raisedAt}>{formatDateTime(a.raisedAt)}</time>
            </span>
          </li>
        ))}
      </ul>
      <p className="small">
        <Link to="/devices/alarms">{msg('dashboard.page.viewAllAlarms')}</Link>
      </p>
    </>
  );
}
