/**
 * `/` and `/dashboard/general`: open incidents by severity (status other than resolved/closed) and
 * devices by status. Tiles link to the incident list and the device status screen.
 */
import { Link } from 'react-router-dom';
import { DEVICE_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import { DEVICE_STATUS_LABELS, SEVERITY_LABELS } from '../../shared/lib/format';
import { ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import { SUMMARY_SAMPLE, countBy, useDeviceSample, useIncidentSample } from './api';

export function DashboardPage() {
  return (
    <section>
      <PageHeader title="Dashboard" />
      <div className="dashboard-grid">
        <IncidentSummary />
        <DeviceSummary />
      </div>
    </section>
  );
}

function IncidentSummary() {
  const { data, error, isLoading, mutate } = useIncidentSample();
  const open = (data?.items ?? []).filter((i) => i.status !== 'resolved' && i.status !== 'closed');
  const bySeverity = countBy(open, SEVERITIES, (i) => i.severity);
  return (
    <section className="card" aria-labelledby="dash-incidents">
      <h2 id="dash-incidents">Incidentes abiertos por severidad</h2>
      {error && !data ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : isLoading || !data ? (
        <LoadingState rows={2} />
      ) : (
        <>
          <ul className="tiles">
            {SEVERITIES.map((s) => (
              <li key={s}>
                <Link to="/incidents/all" className={`tile tile-sev-${s}`}>
                  <span className="tile-value">{bySeverity[s]}</span>
                  <span className="tile-label">{SEVERITY_LABELS[s]}</span>
                </Link>
              </li>
            ))}
          </ul>
          <p className="muted small">
            {open.length} abiertos{data.nextCursor ? ` entre los ${SUMMARY_SAMPLE} más recientes` : ''}.{' '}
            <Link to="/incidents/all">Ver incidentes</Link>
          </p>
        </>
      )}
    </section>
  );
}

function DeviceSummary() {
  const { data, error, isLoading, mutate } = useDeviceSample();
  const byStatus = countBy(data?.items ?? [], DEVICE_STATUSES, (d) => d.status);
  return (
    <section className="card" aria-labelledby="dash-devices">
      <h2 id="dash-devices">Dispositivos por estado</h2>
      {error && !data ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : isLoading || !data ? (
        <LoadingState rows={2} />
      ) : (
        <>
          <ul className="tiles">
            {DEVICE_STATUSES.map((s) => (
              <li key={s}>
                <Link to="/devices/status" className={`tile tile-dev-${s}`}>
                  <span className="tile-value">{byStatus[s]}</span>
                  <span className="tile-label">{DEVICE_STATUS_LABELS[s]}</span>
                </Link>
              </li>
            ))}
          </ul>
          <p className="muted small">
            {data.items.length}
            {data.nextCursor ? '+' : ''} dispositivos. <Link to="/devices/status">Ver estado</Link>
          </p>
        </>
      )}
    </section>
  );
}
