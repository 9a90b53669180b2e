/**
 * Two-step verification (TOTP) on `/profile` (docs/portal.md#screens): shows whether an
 * authenticator app is on (`fetchMFAPreference`); sets one up — `setUpTOTP` gives the secret, shown as a
 * 228 × 228 px QR code of the `otpauth://` URI and as text with Copiar/Copiado — and turns it on after a code from
 * the app is verified (`verifyTOTPSetup`, then `updateMFAPreference({ totp: 'PREFERRED' })`, then a forced token
 * refresh so the ID token carries the TOTP claim staff need, docs/api.md#staff-accounts-and-totp); turns it off
 * (`updateMFAPreference({ totp: 'DISABLED' })`). Errors show in Spanish in an alert.
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { fetchAuthSession, fetchMFAPreference, setUpTOTP, updateMFAPreference, verifyTOTPSetup } from 'aws-amplify/auth';
import { authErrorMessage } from './authErrors';

type State =
  | { step: 'loading' }
  | { step: 'off' }
  | { step: 'on' }
  | { step: 'setup'; secret: string; qr: string }
  | { step: 'error'; message: string };

/** Props: `issuer` names the portal in the authenticator app; `email` labels the account there. */
export function MfaCard({ issuer, email }: { issuer: string; email: string }) {
  const [state, setState] = useState<State>({ step: 'loading' });
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [copied, setCopied] = useState(false);

  const load = () =>
    fetchMFAPreference()
      .then((p) => setState({ step: p.enabled?.includes('TOTP') ? 'on' : 'off' }))
      .catch((err: unknown) => setState({ step: 'error', message: authErrorMessage(err) }));
  useEffect(() => {
    void load();
  }, []);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError('');
    setNotice('');
    try {
      await action();
    } catch (err) {
      setError(authErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const startSetup = () =>
    run(async () => {
      const details = await setUpTOTP();
      const { toDataURL } = await import('qrcode');
      const qr = await toDataURL(details.getSetupUri(issuer, email).href, { width: 228, margin: 1 });
      setCode('');
      setCopied(false);
      setState({ step: 'setup', secret: details.sharedSecret, qr });
    });

  const verify = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await verifyTOTPSetup({ code: code.trim() });
      await updateMFAPreference({ totp: 'PREFERRED' });
      // New tokens now: the ID token of staff carries the TOTP claim the admin routes require only from the
      // next token issue (docs/api.md#staff-accounts-and-totp).
      await fetchAuthSession({ forceRefresh: true });
      setState({ step: 'on' });
      setNotice('La verificación en dos pasos está activada.');
    });
  };

  const turnOff = () =>
    run(async () => {
      await updateMFAPreference({ totp: 'DISABLED' });
      setState({ step: 'off' });
      setNotice('La verificación en dos pasos está desactivada.');
    });

  return (
    <section className="card" aria-labelledby="mfa-title">
      <h2 id="mfa-title">Verificación en dos pasos (MFA)</h2>
      {state.step === 'loading' && <p role="status">Cargando…</p>}
      {state.step === 'error' && <p role="alert">{state.message}</p>}
      {state.step === 'off' && (
        <>
          <p>
            Estado: <strong>desactivada</strong>. Al iniciar sesión se le pedirá además un código de una aplicación de
            autenticación (TOTP).
          </p>
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void startSetup()}>
            Configurar aplicación de autenticación
          </button>
        </>
      )}
      {state.step === 'on' && (
        <>
          <p>
            Estado: <strong>activada</strong> con una aplicación de autenticación (TOTP).
          </p>
          <button type="button" className="btn" disabled={busy} onClick={() => void turnOff()}>
            Desactivar verificación en dos pasos
          </button>
        </>
      )}
      {state.step === 'setup' && (
        <form className="form" onSubmit={verify}>
          <p>Escanee el código QR con su aplicación de autenticación o escriba la clave secreta.</p>
          <img src={state.qr} width={228} height={228} alt="Código QR para la aplicación de autenticación" />
          <p>
            Clave secreta: <code data-testid="totp-secret">{state.secret}</code>{' '}
            <button
              type="button"
              className="btn"
              onClick={() =>
                void navigator.clipboard?.writeText(state.secret).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? 'Copiado' : 'Copiar'}
            </button>
          </p>
          <div className="field">
            <label htmlFor="totp-code">Código de la aplicación</label>
            <input
              id="totp-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Verificar y activar
            </button>
            <button type="button" className="btn" disabled={busy} onClick={() => setState({ step: 'off' })}>
              Cancelar
            </button>
          </div>
        </form>
      )}
      {error && <p role="alert" className="field-error">{error}</p>}
      {notice && <p role="status">{notice}</p>}
    </section>
  );
}
