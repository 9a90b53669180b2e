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
import { t as msg } from '../../shared/lib/messages';

/** Shown when this browser has no device key (signed in before device tracking, or the device was forgotten). */
export function noDeviceKeyMessage(): string {
  return msg('account.devicesCard.noDeviceKey');
}

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
        setError(err instanceof Error && err.name === 'DeviceMetadataNotFoundException' ? noDeviceKeyMessage() : authErrorMessage(err)),
      )
      .finally(() => setBusy(false));
  };

  return (
    <section className="card" aria-labelledby="devices-title">
      <h2 id="devices-title">{msg('account.devicesCard.rememberedDevices')}</h2>
      <p>
        <button type="button" className="btn" disabled={busy} onClick={() => run(() => rememberDevice())}>
          {msg('account.devicesCard.rememberThisDevice')}
        </button>
      </p>
      {!devices && !error && <p role="status">{msg('common.loading')}</p>}
      {devices && devices.length === 0 && <p className="empty-state">{msg('account.devicesCard.noRememberedDevices')}</p>}
      {devices && devices.length > 0 && (
        <ul className="device-list" aria-label={msg('account.devicesCard.rememberedDevices')}>
          {devices.map((d) => (
            <li key={d.id}>
              <span className="device-name">{d.name || d.id}</span>{' '}
              <span className="muted">
                {msg('account.devicesCard.lastUsed')} {formatDateTime(d.lastAuthenticatedDate?.toISOString() ?? d.lastModifiedDate?.toISOString())}
              </span>{' '}
              <button
                type="button"
                className="btn"
                disabled={busy}
                aria-label={msg('account.devicesCard.forgetNamed', { name: d.name || d.id })}
                onClick={() => run(() => forgetDevice({ device: { id: d.id } }))}
              >
                {msg('account.devicesCard.forget')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <div role="alert">
          <p>{error}</p>
          <button type="button" className="btn" onClick={load}>
            {msg('common.retry')}
          </button>
        </div>
      )}
    </section>
  );
}
