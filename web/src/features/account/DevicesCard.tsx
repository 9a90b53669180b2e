/**
 * Remembered devices on `/profile` (docs/portal.md#screens; a device has an id and a name). The user pool tracks devices
 * with user opt-in (infra/auth-stack.ts `deviceTracking`): each sign-in registers this browser as a device
 * (Amplify's ConfirmDevice), which is remembered only when the user presses "Recordar este dispositivo"
 * (`rememberDevice` → UpdateDeviceStatus remembered). The list (`fetchDevices` → ListDevices, remembered devices
 * only) shows each device's name and when it last signed in; "Olvidar" forgets one (`forgetDevice`).
 * Empty state: 'No hay dispositivos recordados.'
 */
import { useEffect, useState } from 'react';
import { fetchDevices, forgetDevice, rememberDevice } from 'aws-amplify/auth';
import type { FetchDevicesOutput } from 'aws-amplify/auth';
import { formatDateTime } from '../../shared/lib/format';
import { authErrorMessage } from './authErrors';

/** Shown when this browser has no device key (signed in before device tracking, or the device was forgotten). */
export const NO_DEVICE_KEY = 'Este navegador no tiene un dispositivo registrado; cierre sesión y vuelva a entrar para recordarlo.';

export function DevicesCard() {
  const [devices, setDevices] = useState<FetchDevicesOutput | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const load = () => {
    setError('');
    fetchDevices().then(setDevices, (err: unknown) => setError(authErrorMessage(err)));
  };
  useEffect(() => {
    fetchDevices().then(setDevices, (err: unknown) => setError(authErrorMessage(err)));
  }, []);

  const run = (action: () => Promise<void>) => {
    setError('');
    setBusy(true);
    action()
      .then(load, (err: unknown) =>
        setError(err instanceof Error && err.name === 'DeviceMetadataNotFoundException' ? NO_DEVICE_KEY : authErrorMessage(err)),
      )
      .finally(() => setBusy(false));
  };

  return (
    <section className="card" aria-labelledby="devices-title">
      <h2 id="devices-title">Dispositivos recordados</h2>
      <p>
        <button type="button" className="btn" disabled={busy} onClick={() => run(() => rememberDevice())}>
          Recordar este dispositivo
        </button>
      </p>
      {!devices && !error && <p role="status">Cargando…</p>}
      {devices && devices.length === 0 && <p className="empty-state">No hay dispositivos recordados.</p>}
      {devices && devices.length > 0 && (
        <ul className="device-list" aria-label="Dispositivos recordados">
          {devices.map((d) => (
            <li key={d.id}>
              <span className="device-name">{d.name || d.id}</span>{' '}
              <span className="muted">
                Último uso: {formatDateTime(d.lastAuthenticatedDate?.toISOString() ?? d.lastModifiedDate?.toISOString())}
              </span>{' '}
              <button
                type="button"
                className="btn"
                disabled={busy}
                aria-label={`Olvidar ${d.name || d.id}`}
                onClick={() => run(() => forgetDevice({ device: { id: d.id } }))}
              >
                Olvidar
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <div role="alert">
          <p>{error}</p>
          <button type="button" className="btn" onClick={load}>
            Reintentar
          </button>
        </div>
      )}
    </section>
  );
}
