/** One maintenance window of the "Mantenimiento" table: work, devices (by name) and sites, start and end in the reader's time zone, status, and — for those who may write — "Editar" and "Eliminar". */
import { windowStatus, type MaintenanceWindow } from '../../shared/lib/contract';
import { formatDateTime } from '../../shared/lib/format';
import { MAINTENANCE_WINDOW_STATUS_LABELS } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';
import { Badge } from '../../shared/ui/states';
import { DeviceChip } from './DeviceChip';

const TONES = { upcoming: 'st-new', active: 'ok', past: 'muted' } as const;

export function MaintenanceRow({ window: w, now, canWrite, canChangePast, busy, onEdit, onRemove }: {
  window: MaintenanceWindow;
  now: Date;
  canWrite: boolean;
  /** Staff may change an ended window (docs/api.md#maintenance-windows); a customer may not. */
  canChangePast: boolean;
  busy: boolean;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const status = windowStatus(w, now);
  return (
    <tr>
      <td data-label={msg('fields.maintenanceWindow.title')}>
        <strong>{w.title}</strong>
      </td>
      <td data-label={msg('maintenance.table.scope')}>
        <ul className="device-chips">
          {w.scope.deviceIds.map((id) => (
            <DeviceChip key={id} id={id} />
          ))}
          {w.scope.sites.map((s) => (
            <li key={`site-${s}`} className="device-chip">
              {msg('maintenance.table.site', { site: s })}
            </li>
          ))}
        </ul>
      </td>
      <td data-label={msg('fields.maintenanceWindow.start')}>{formatDateTime(w.startAt)}</td>
      <td data-label={msg('fields.maintenanceWindow.end')}>{formatDateTime(w.endAt)}</td>
      <td data-label={msg('maintenance.table.status')}>
        <Badge tone={TONES[status]}>{MAINTENANCE_WINDOW_STATUS_LABELS[status]}</Badge>
      </td>
      {canWrite && (
        <td data-label={msg('fields.common.actions')}>
          {/* An ended window is kept as it was (the API refuses a customer's change: 409 INVALID_TRANSITION). */}
          {(status !== 'past' || canChangePast) && (
            <div className="row-actions">
              <button type="button" className="btn" disabled={busy} aria-label={msg('maintenance.table.editOf', { title: w.title })} onClick={onEdit}>
                {msg('maintenance.table.edit')}
              </button>
              <button type="button" className="btn" disabled={busy} aria-label={msg('maintenance.table.removeOf', { title: w.title })} onClick={onRemove}>
                {msg('actions.delete')}
              </button>
            </div>
          )}
        </td>
      )}
    </tr>
  );
}
