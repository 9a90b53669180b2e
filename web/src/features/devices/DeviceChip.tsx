/**
 * A device of a maintenance window shown by its name (`getDevice`, one GetItem-backed read per device, cached
 * by SWR for the page), its id while the name loads or when the device is gone; with "Quitar" when
 * `onRemove` is given (the window form).
 */
import { t as msg } from '../../shared/lib/messages';
import { useDevice } from './api';

export function DeviceChip({ id, onRemove }: { id: string; onRemove?: () => void }) {
  const device = useDevice(id);
  const name = device.data?.name ?? id;
  return (
    <li className="device-chip">
      <span>{name}</span>
      {onRemove && (
        <button type="button" className="btn btn-small" aria-label={msg('maintenance.form.removeDevice', { name })} onClick={onRemove}>
          ×
        </button>
      )}
    </li>
  );
}
