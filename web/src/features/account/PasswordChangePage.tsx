/**
 * `/page/passwordchange` (docs/portal.md#password-rules): current, new and confirm password. Validates with
 * `validatePasswordChange` (min 8, 'Las contraseñas deben coincidir'), then `updatePassword` (Cognito
 * ChangePassword with the access token). A wrong current password or a refused new one shows its message.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { updatePassword } from 'aws-amplify/auth';
import { PageHeader } from '../../shared/ui/states';
import { useTenant } from '../../shared/lib/tenant';
import { ManagedByCompany } from './ManagedByCompany';
import { authErrorMessage } from './authErrors';
import { validatePasswordChange } from './passwordChange';
import type { PasswordChangeField, PasswordChangeValues } from './passwordChange';
import { t as msg } from '../../shared/lib/messages';
import { FormActions } from '../../shared/ui/FormActions';

const EMPTY: PasswordChangeValues = { current: '', next: '', confirm: '' };
const FIELDS: readonly { field: PasswordChangeField; label: string; autoComplete: string }[] = [
  { field: 'current', get label() { return msg('account.passwordChange.currentPassword'); }, autoComplete: 'current-password' },
  { field: 'next', get label() { return msg('account.passwordChange.newPassword'); }, autoComplete: 'new-password' },
  { field: 'confirm', get label() { return msg('account.passwordChange.confirmNewPassword'); }, autoComplete: 'new-password' },
];

export function PasswordChangePage() {
  const { me } = useTenant();
  const [values, setValues] = useState(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<PasswordChangeField, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState('');
  const [done, setDone] = useState(false);
  const errors = validatePasswordChange(values, touched, submitted);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setServerError('');
    setDone(false);
    if (Object.keys(validatePasswordChange(values, touched, true)).length > 0) return;
    setBusy(true);
    try {
      await updatePassword({ oldPassword: values.current, newPassword: values.next });
      setValues(EMPTY);
      setTouched({});
      setSubmitted(false);
      setDone(true);
    } catch (err) {
      setServerError(authErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  if (me?.federated) {
    // A federated user's password lives at their company's identity provider (docs/api.md#me).
    return (
      <section>
        <PageHeader title={msg('chrome.passwordChange')} />
        <ManagedByCompany provider={me.identityProvider ?? ''} />
      </section>
    );
  }
  return (
    <section>
      <PageHeader title={msg('chrome.passwordChange')} />
      <form className="card form" noValidate onSubmit={(e) => void onSubmit(e)}>
        {FIELDS.map(({ field, label, autoComplete }) => (
          <div className="field" key={field}>
            <label htmlFor={`pw-${field}`}>{label}</label>
            <input
              id={`pw-${field}`}
              type="password"
              autoComplete={autoComplete}
              value={values[field]}
              aria-invalid={Boolean(errors[field])}
              aria-describedby={errors[field] ? `pw-${field}-error` : undefined}
              onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
              onBlur={() => setTouched((t) => ({ ...t, [field]: true }))}
            />
            {errors[field] && (
              <p id={`pw-${field}-error`} className="field-error">
                {errors[field]}
              </p>
            )}
          </div>
        ))}
        {done && <p role="status">{msg('account.passwordChange.passwordUpdated')}</p>}
        <FormActions busy={busy} label={msg('chrome.passwordChange')} busyLabel={msg('account.passwordChange.changing')} error={serverError} />
      </form>
    </section>
  );
}
