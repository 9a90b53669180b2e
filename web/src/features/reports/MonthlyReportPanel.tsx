/**
 * The monthly report on "Informes" (issue 32 point 5; docs/api.md#monthly-report): "Descargar PDF" for the chosen
 * UTC month (`GET /reports/monthly/{month}`, the PDF built on the server in the reader's language and answered
 * as base64 JSON, turned here into a Blob download), and resolution-SLA compliance per month over the last 12
 * months (`GET /reports/sla-history`, one Query on the server). After a download, the report's maintenance line
 * as the PDF prints it: "N ventanas de mantenimiento excluidas (M min)" (docs/sla.md#maintenance-windows).
 */
import { useState } from 'react';
import { useApi, useApiSWR } from '../../shared/lib/api-context';
import { formatPercent } from '../../shared/lib/format';
import { messagesLanguage, t as msg } from '../../shared/lib/messages';
import { ErrorState, LoadingState } from '../../shared/ui/states';
import { downloadBlob } from '../../shared/ui/csv';
import './monthly-report.css';

/** Saves base64 `data` as file `fileName` of type `type` (the shared download link). */
function saveBase64(fileName: string, type: string, data: string): void {
  downloadBlob(fileName, new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], { type }));
}

export function MonthlyReportPanel({ tenant }: { tenant: string | undefined }) {
  const api = useApi();
  const [month, setMonth] = useState(() => new Date().toISOString().slice(0, 7));
  const [state, setState] = useState<'idle' | 'busy' | 'error'>('idle');
  // The downloaded month's maintenance windows excluded from availability (the PDF's line).
  const [maintenance, setMaintenance] = useState<{ month: string; windows: number; minutes: number } | null>(null);
  const history = useApiSWR('getSlaHistory', { query: { tenant } }, { revalidateOnFocus: false });
  const download = async () => {
    setState('busy');
    try {
      const f = await api.call('getMonthlyReport', { params: { month }, query: { tenant, lang: messagesLanguage() } });
      saveBase64(f.fileName, f.contentType, f.base64);
      setMaintenance({ month, ...f.maintenance });
      setState('idle');
    } catch {
      setState('error');
    }
  };
  return (
    <section className="card" aria-labelledby="monthly-report-title">
      <h2 id="monthly-report-title">{msg('reports.monthly.title')}</h2>
      <label>
        {msg('reports.monthly.month')}{' '}
        <input type="month" value={month} max={new Date().toISOString().slice(0, 7)} onChange={(e) => setMonth(e.target.value)} />
      </label>{' '}
      <button type="button" className="btn" disabled={state === 'busy' || !month} onClick={() => void download()}>
        {msg('reports.monthly.downloadPdf')}
      </button>
      {state === 'error' && <p role="alert">{msg('reports.monthly.downloadFailed')}</p>}
      {maintenance && maintenance.month === month && (
        <p className="muted">{msg('reports.monthly.maintenanceExcluded', { count: maintenance.windows, minutes: maintenance.minutes })}</p>
      )}
      <h3>{msg('reports.monthly.slaHistory')}</h3>
      {history.error ? (
        <ErrorState error={history.error} onRetry={() => void history.mutate()} />
      ) : !history.data ? (
        <LoadingState rows={2} />
      ) : (
        // Its own horizontal scroll at 375 px (focusable so a keyboard can scroll it), never the page's.
        <div className="sla-history-scroll" role="region" aria-label={msg('reports.monthly.slaHistory')} tabIndex={0}>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{msg('reports.monthly.month')}</th>
              <th scope="col">{msg('reports.monthly.resolved')}</th>
              <th scope="col">{msg('reports.monthly.compliance')}</th>
            </tr>
          </thead>
          <tbody>
            {history.data.months.map((m) => (
              <tr key={m.month}>
                <td>{m.month}</td>
                <td>{m.resolved}</td>
                <td>{m.compliancePct === null ? msg('reports.monthly.noResolved') : formatPercent(m.compliancePct)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </section>
  );
}
