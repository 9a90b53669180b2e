/** "Invitar a un colega": e-mail, name and role (`POST /team`); field errors before sending, the API's after. */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { CUSTOMER_ROLE_LABELS } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';
import { FormActions } from '../../shared/ui/FormActions';
import { TEAM_ROLES, type TeamRole } from './team-notice';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `invite` resolves with the error text to show, or null when the invitation was sent (the form then clears). */
export function InviteForm({ invite }: { invite: (body: { email: string; name: string; role: TeamRole }) => Promise<string | null> }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<TeamRole>('viewer');
  const [errors, setErrors] = useState<{ email?: string; name?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const v = { email: email.trim(), name: name.trim(), role };
    const found = {
      ...(!EMAIL_RE.test(v.email) || v.email.length > 254 ? { email: msg('team.invite.badEmail') } : {}),
      ...(!v.name || v.name.length > 120 ? { name: msg('team.invite.badName') } : {}),
    };
    setErrors(found);
    if (found.email || found.name) return;
    setBusy(true);
    const error = await invite(v);
    setBusy(false);
    setFormError(error);
    if (!error) {
      setEmail('');
      setName('');
      setRole('viewer');
    }
  };

  return (
    <form className="form card" onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="team-invite-title">
      <h2 id="team-invite-title">{msg('team.invite.title')}</h2>
      <div className="field">
        <label htmlFor="team-email">{msg('team.invite.email')}</label>
        <input id="team-email" type="email" autoComplete="off" value={email} aria-invalid={errors.email ? true : undefined} aria-describedby={errors.email ? 'team-email-error' : undefined} onChange={(e) => setEmail(e.target.value)} />
        {errors.email && <p id="team-email-error" className="field-error">{errors.email}</p>}
      </div>
      <div className="field">
        <label htmlFor="team-name">{msg('team.invite.name')}</label>
        <input id="team-name" type="text" autoComplete="off" maxLength={120} value={name} aria-invalid={errors.name ? true : undefined} aria-describedby={errors.name ? 'team-name-error' : undefined} onChange={(e) => setName(e.target.value)} />
        {errors.name && <p id="team-name-error" className="field-error">{errors.name}</p>}
      </div>
      <div className="field">
        <label htmlFor="team-role">{msg('fields.user.role')}</label>
        <select id="team-role" value={role} onChange={(e) => setRole(e.target.value as TeamRole)}>
          {TEAM_ROLES.map((r) => (
            <option key={r} value={r}>
              {CUSTOMER_ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </div>
      <FormActions busy={busy} label={msg('team.invite.submit')} busyLabel={msg('actions.inviting')} error={formError} />
    </form>
  );
}
