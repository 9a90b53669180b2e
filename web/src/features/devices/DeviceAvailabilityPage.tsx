/**
 * `/devices/availability` (docs/portal.md#screens): availability of one device over a chosen trailing window
 * (7/30/90 days, `GET /devices/{id}`), as a daily line chart with the SLA target as a reference line,
 * plus the three windows with "Cumple"/"No cumple" against the target. The device and window live in
 * the URL (`?device=<id>&days=30`); the first device by name is shown by default. The device is chosen with
 * `DevicePicker` (a name search on the server, one page at a time): no read of the whole fleet.
 */
import { Link, useSearchParams } from 'react-router-dom';
import { devicePath } from '../../shared/lib/links';
import { deviceTypeLabel, formatPercent } from '../../shared/lib/format';
import { AvailabilityChart } from '../../shared/ui/charts';
import { DeviceStatusBadge } from '../../shared/ui/badges';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { lastDays, useDevice, useDeviceSearch, WINDOWS } from './api';
import { DevicePicker } from './DevicePicker';
import type { WindowDays } from './api';
import { t as msg } from '../../shared/lib/messages';

function slaText(meets: boolean | null): string {
  return meets === null ? msg('common.noData') : meets ? msg('devices.availability.meetsTheSla') : msg('devices.availability.belowTarget');
}

export function DeviceAvailabilityPage() {
  const [params, setParams] = useSearchParams();
  // The first device by name (the default): the picker's first page, the same request.
  const devices = useDeviceSearch('');
  const items = devices.data?.items ?? [];
  const requested = params.get('device');
  const deviceId = requested && /^[A-Za-z0-9_.-]{1,64}$/.test(requested) ? requested : (items[0]?.id ?? null);
  const daysParam = Number(params.get('days'));
  const days: WindowDays = (WINDOWS as readonly number[]).includes(daysParam) ? (daysParam as WindowDays) : 30;
  const detail = useDevice(deviceId);
  const set = (next: { device?: string; days?: number }) =>
    setParams({ device: next.device ?? deviceId ?? '', days: String(next.days ?? days) }, { replace: true });

  return (
    <section>
      <PageHeader title={msg('devices.availability.deviceAvailability')} />
      {devices.error && !devices.data ? (
        <ErrorState error={devices.error} onRetry={() => void devices.mutate()} />
      ) : !devices.data ? (
        <LoadingState />
      ) : items.length === 0 && !requested ? (
        <EmptyState>{msg('devices.availability.noDevicesRegistered')}</EmptyState>
      ) : (
        <>
          <div className="card toolbar">
<div className="filters">
                          <DevicePicker id="av-device" label={msg('devices.availability.device')} value={deviceId ?? ''} selectedName={detail.data?.id === deviceId ? `${detail.data.name} (${detail.data.site})` : null} onChange={(id) => id && set({ device: id })} />
            </div>
            <div role="group" aria-label={msg('fields.common.period')} className="segmented">
              {WINDOWS.map((w) => (
                <button key={w} type="button" aria-pressed={w === days} onClick={() => set({ days: w })}>
                  {w} {msg('devices.availability.days')}
                </button>
              ))}
            </div>
          </div>
          {detail.error && !detail.data ? (
            <ErrorState error={detail.error} onRetry={() => void detail.mutate()} />
          ) : !detail.data ? (
            <LoadingState rows={6} />
          ) : (
            <div className="card">
              <h2>
                {detail.data.name} <DeviceStatusBadge status={detail.data.status} />
              </h2>
              <p className="muted small">
                {deviceTypeLabel(detail.data.type)} · {detail.data.vendor} {detail.data.model} · {detail.data.site} · {detail.data.ipAddress} ·{' '}
                <Link to={devicePath(detail.data.id, detail.data.tenantId)}>{msg('devices.availability.viewTheDevice')}</Link>
              </p>
              <ul className="kpi-row" aria-label={msg('devices.availability.availabilityByPeriod')}>
                {(
                  [
                    [msg('common.periods.last7Days'), detail.data.availability.last7d],
                    [msg('common.periods.last30Days'), detail.data.availability.last30d],
                    [msg('common.periods.last90Days'), detail.data.availability.last90d],
                  ] as const
                ).map(([label, w]) => (
                  <li key={label}>
                    <span className="muted small">{label}</span>
                    <strong>{formatPercent(w.availablePct)}</strong>
                    <span className={w.meetsSla === false ? 'text-danger small' : 'small'}>{slaText(w.meetsSla)}</span>
                  </li>
                ))}
                <li>
                  <span className="muted small">{msg('devices.availability.slaTarget')}</span>
                  <strong>{formatPercent(detail.data.slaTargetPct)}</strong>
                </li>
              </ul>
              {detail.data.daily.length === 0 ? (
                <EmptyState>{msg('devices.availability.noHistory')}</EmptyState>
              ) : (
                <AvailabilityChart
                  points={lastDays(detail.data.daily, days)}
                  slaTargetPct={detail.data.slaTargetPct}
                  caption={msg('devices.availability.dailyChartCaption', { name: detail.data.name, days, target: formatPercent(detail.data.slaTargetPct) })}
                />
              )}
            </div>
          )}
        </>
      )}
    </section>
  );
}
