/**
 * The SOC queue's bulk bar (issue 31 point 6; docs/portal.md#soc-queue, docs/api.md#soc-bulk): with incidents
 * selected on the queue, "Asignarme" / "Quitar asignación", "Cambiar estado" (in progress, on hold, resolved)
 * on the open tab and "Cerrar resueltos" on the resolved tab. Every action asks first in the shared
 * confirmation dialog (naming the incidents), then sends ONE `POST /soc/bulk` with each row's version; the
 * API applies each row on its own. `onDone` gets the per-row results: the page keeps the failed rows
 * selected and this bar lists each one with its message ("INC-000123 (Acme): …").
 */
import { useState } from 'react';
import type { IncidentStatus, SocBulkBody, SocBulkResult, SocQueueItem } from '../../shared/lib/contract';
import { ApiError, toApiError } from '../../shared/lib/api';
import { useApi } from '../../shared/lib/api-context';
import { INCIDENT_STATUS_LABELS } from '../../shared/lib/format';
import { useSession } from '../../shared/lib/session';
import { useConfirm } from '../../shared/ui/ConfirmDialog';
import { t as msg } from '../../shared/lib/messages';
import type { QueueTab } from './filters';
import './bulk-bar.css';

/** Statuses the bar moves open incidents to (the lifecycle's targets from the open tab). */
export const BULK_STATUSES = ['in_progress', 'on_hold', 'resolved'] as const satisfies readonly IncidentStatus[];

/** A failed row's message in the portal's language: the text of its API code, as the single-incident screens show it. */
const rowMessage = (code: string, message: string) => new ApiError({ kind: 'client', code, message }).userMessage;

/** What the bar reports after a request: the counts and the failed rows' texts, or the request's own error. */
type Outcome = { applied: number; failed: string[] } | { error: string };

export function BulkBar({
  selected,
  tab,
  customerName,
  pageSize,
  allSelected,
  onSelectPage,
  onDone,
  onClear,
}: {
  /** The selected rows, in queue order. */
  selected: readonly SocQueueItem[];
  tab: QueueTab;
  customerName: (tenantId: string) => string;
  /** Rows loaded on the queue (what "select the whole page" selects). */
  pageSize: number;
  allSelected: boolean;
  onSelectPage: (on: boolean) => void;
  /** After a request answered: its per-row results. */
  onDone: (result: SocBulkResult) => void | Promise<void>;
  onClear: () => void;
}) {
  const api = useApi();
  const session = useSession();
  const me = session.status === 'ready' ? session.user.email : '';
  const [status, setStatus] = useState<(typeof BULK_STATUSES)[number]>('in_progress');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [dialog, ask] = useConfirm();
  const count = selected.length;
  const ids = selected.map((i) => i.id).join(', ');

  const run = async (body: Omit<SocBulkBody, 'items'>, title: string, text: string) => {
    if (!(await ask({ title, body: text, confirmLabel: msg('soc.bulk.confirm', { count }) }))) return;
    setBusy(true);
    setOutcome(null);
    try {
      const result = await api.call('bulkUpdateSocQueue', { body: { ...body, items: selected.map((i) => ({ tenantId: i.tenantId, id: i.id, version: i.version })) } as SocBulkBody });
      setOutcome({
        applied: result.applied,
        failed: result.results.flatMap((r) => (r.ok ? [] : [msg('soc.bulk.failedRow', { id: r.id, customer: customerName(r.tenantId), message: rowMessage(r.code, r.message) })])),
      });
      await onDone(result);
    } catch (err) {
      setOutcome({ error: msg('soc.bulk.requestFailed', { message: toApiError(err).userMessage }) });
    }
    setBusy(false);
  };

  return (
    <div className="card bulk-bar" role="region" aria-label={msg('soc.bulk.actions')}>
      {dialog}
      <div className="bulk-head">
        <label className="checkbox-field">
          <input type="checkbox" checked={allSelected && pageSize > 0} disabled={pageSize === 0 || busy} onChange={(e) => onSelectPage(e.target.checked)} /> {msg('soc.bulk.selectPage', { count: pageSize })}
        </label>
        <p className="bulk-count" aria-live="polite">
          <strong>{msg('soc.bulk.selected', { count })}</strong>
        </p>
      </div>
      {count > 0 && (
        <div className="row-actions">
          {tab === 'open' ? (
            <>
              <button type="button" className="btn" disabled={busy || !me} onClick={() => void run({ action: 'assign', assignee: me }, msg('soc.bulk.confirmAssignTitle', { count }), msg('soc.bulk.confirmBody', { ids }))}>
                {msg('soc.bulk.assignToMe')}
              </button>
              <button type="button" className="btn" disabled={busy} onClick={() => void run({ action: 'assign', assignee: null }, msg('soc.bulk.confirmUnassignTitle', { count }), msg('soc.bulk.confirmBody', { ids }))}>
                {msg('soc.bulk.unassign')}
              </button>
              <label className="visually-hidden" htmlFor="bulk-status">
                {msg('soc.bulk.newStatus')}
              </label>
              <select id="bulk-status" value={status} onChange={(e) => setStatus(e.target.value as (typeof BULK_STATUSES)[number])}>
                {BULK_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {INCIDENT_STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="btn"
                disabled={busy}
                onClick={() => void run({ action: 'status', status }, msg('soc.bulk.confirmStatusTitle', { count, status: INCIDENT_STATUS_LABELS[status] }), msg('soc.bulk.confirmBody', { ids }))}
              >
                {msg('actions.changeStatus')}
              </button>
            </>
          ) : (
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void run({ action: 'close' }, msg('soc.bulk.confirmCloseTitle', { count }), msg('soc.bulk.confirmCloseBody', { ids }))}>
              {msg('soc.bulk.closeResolved')}
            </button>
          )}
          <button type="button" className="btn" disabled={busy} onClick={onClear}>
            {msg('soc.bulk.clear')}
          </button>
          {busy && <span className="muted small">{msg('soc.bulk.working')}</span>}
        </div>
      )}
      {outcome && 'error' in outcome && (
        <div className="error-state" role="alert">
          <p>{outcome.error}</p>
        </div>
      )}
      {outcome && 'applied' in outcome && (
        <div className={outcome.failed.length ? 'error-state' : 'notice-ok'} role={outcome.failed.length ? 'alert' : 'status'}>
          {outcome.applied > 0 && <p>{msg('soc.bulk.applied', { count: outcome.applied })}</p>}
          {outcome.failed.length > 0 && (
            <>
              <p>{msg('soc.bulk.failedIntro', { count: outcome.failed.length })}</p>
              <ul className="bulk-failures">
                {outcome.failed.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
