/**
 * Remembered devices on `/profile` (issue 3; spec §3 "Remembered device": id, name): lists them
 * (`fetchDevices`) and forgets one (`forgetDevice`). Empty state: 'No hay dispositivos recordados.'
 */
import { useEffect, useState } from 'react';
import { fetchDevices, forgetDevice } from 'aws-amplify/auth';
import type { FetchDevicesOutput } from 'aws-amplify/auth';
import { authErrorMessage } from './authErrors';

export function DevicesCard() {
  const [devices, setDevices] = useState<FetchDevicesOutput | null>(null);
  const [error, setError] = useState('');
  const load = () => {
    setError('');
    fetchDevices().then(setDevices, (err: unknown) => setError(authErrorMessage(err)));
  };
  useEffect(load, []);

  const forget = (id: string) => {
    setError('');
    forgetDevice({ device: { id } }).then(load, (err: unknown) => setError(authErrorMessage(err)));
  };

  return (
    <section className="card" aria-labelledby="devices-title">
      <h2 id="devices-title">Dispositivos recordados</h2>
      {!devices && !error && <p role="status">Cargando…</p>}
      {devices && devices.length === 0 && <p className="empty-state">No hay dispositivos recordados.</p>}
      {devices && devices.length > 0 && (
        <ul className="device-list">
          {devices.map((d) => (
            <li key={d.id}>
              <span>{d.name || d.id}</span>{' '}
              <button type="button" className="btn" onClick={() => forget(d.id)}>
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
