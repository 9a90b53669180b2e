/**
 * Two-step verification (TOTP) on `/profile` (docs/portal.md#screens): shows whether an
 * authenticator app is on (`fetchMFAPreference`); sets one up — `setUpTOTP` gives the secret, shown as a
 * 228 × 228 px QR code of the `otpauth://` URI and as text with Copiar/Copiado — and turns it on after a code from
 * the app is verified (`verifyTOTPSetup`, then `updateMFAPreference({ totp: 'PREFERRED' })`, then a forced token
 * refresh so the ID token carries the TOTP claim staff need, docs/api.md#staff-accounts-and-totp); turns it off
 * (`updateMFAPreference({ totp: 'DISABLED' })`). Errors show in an alert.
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { fetchAuthSession, fetchMFAPreference, setUpTOTP, updateMFAPreference, verifyTOTPSetup } from 'aws-amplify/auth';
import { authErrorMessage } from './authErrors';
import { t as msg } from '../../shared/lib/messages';
import { FormActions } from '../../shared/ui/FormActions';

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
      setNotice(msg('account.mfaCard.twoStepVerificationIsOn'));
    });
  };

  const turnOff = () =>
    run(async () => {
      await updateMFAPreference({ totp: 'DISABLED' });
      setState({ step: 'off' });
      setNotice(msg('account.mfaCard.twoStepVerificationIsOff'));
    });

  return (
    <section className="card" aria-labelledby="mfa-title">
      <h2 id="mfa-title">{msg('account.mfaCard.twoStepVerificationMfa')}</h2>
      {state.step === 'loading' && <p role="status">{msg('common.loading')}</p>}
      {state.step === 'error' && <p role="alert">{state.message}</p>}
      {state.step === 'off' && (
        <>
          <p>
            {msg('account.mfaCard.status')} <strong>{msg('account.mfaCard.off')}</strong>{msg('account.mfaCard.enabledExplanation')}
          </p>
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void startSetup()}>
            {msg('account.mfaCard.setUp')}
          </button>
        </>
      )}
      {state.step === 'on' && (
        <>
          <p>
            {msg('account.mfaCard.status')} <strong>{msg('account.mfaCard.on')}</strong> {msg('account.mfaCard.enabledWithTotp')}
          </p>
          <button type="button" className="btn" disabled={busy} onClick={() => void turnOff()}>
            {msg('account.mfaCard.turnOff')}
          </button>
        </>
      )}
      {state.step === 'setup' && (
        <form className="form" onSubmit={verify}>
          <p>{msg('account.mfaCard.scanInstructions')}</p>
          <img src={state.qr} width={228} height={228} alt={msg('account.mfaCard.qrCodeAlt')} />
          <p>
            {msg('account.mfaCard.secretKey')} <code data-testid="totp-secret">{state.secret}</code>{' '}
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
              {copied ? msg('actions.copied') : msg('actions.copy')}
            </button>
          </p>
          <div className="field">
            <label htmlFor="totp-code">{msg('account.mfaCard.codeFromTheApp')}</label>
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
          <FormActions busy={busy} label={msg('account.mfaCard.verifyAndTurnOn')}>
            <button type="button" className="btn" disabled={busy} onClick={() => setState({ step: 'off' })}>
              {msg('actions.cancel')}
            </button>
          </FormActions>
        </form>
      )}
      {error && <p role="alert" className="field-error">{error}</p>}
      {notice && <p role="status">{notice}</p>}
    </section>
  );
}
