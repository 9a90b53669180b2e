/** A customer's users: "Invitar usuario" and per user resend, disable/enable, remove, reset MFA, grant/revoke staff (asking first where it ends access). */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { EmptyState, ErrorState, LoadingState } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { useAdminActions, useStaff, useTenantUsers } from './api';
import { useTenant } from '../../shared/lib/tenant';
import { confirmTexts, useConfirm, type ConfirmAction } from './confirmTexts';
import { t as msg } from '../../shared/lib/messages';
import { NoticeBox, attempt, type Notice } from './admin-notice';
import { Field } from './Field';
import { UserTable } from './UserTable';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function UsersCard({ tenantId, tenantName }: { tenantId: string; tenantName: string }) {
  const users = useTenantUsers(tenantId);
  const [dialog, ask] = useConfirm();
  const staff = useStaff();
  const actions = useAdminActions();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const staffNames = new Set((staff.data?.items ?? []).map((u) => u.username));
  const { me } = useTenant();

  const run = async (key: string, action: () => Promise<unknown>, ok: string) => {
    setBusy(key);
    setNotice(await attempt(action, ok));
    setBusy(null);
  };
  /** `run` after the user confirmed the prompt naming `who` (disable, remove, revoke staff, reset MFA). */
  const confirmThen = async (what: ConfirmAction, who: string, key: string, action: () => Promise<unknown>, ok: string) => {
    if (await ask(confirmTexts(what, who, tenantName))) await run(key, action, ok);
  };
  const onInvite = async (e: FormEvent) => {
    e.preventDefault();
    const v = email.trim();
    if (!EMAIL_RE.test(v) || v.length > 254) return setEmailError(msg('admin.pages.emailInvalid'));
    setEmailError(null);
    await run('invite', () => actions.invite(tenantId, v), msg('admin.pages.invitationSent', { email: v }));
    setEmail('');
  };

  return (
    <div className="card">
      <h2>{msg('admin.pages.users')}</h2>
      {dialog}
      <NoticeBox notice={notice} />
      <form className="form" onSubmit={(e) => void onInvite(e)} noValidate>
        <Field id="invite-email" label={msg('admin.pages.newUserSEmail')} error={emailError ?? undefined}>
          <input id="invite-email" type="email" autoComplete="off" value={email} aria-invalid={emailError ? true : undefined} aria-describedby={emailError ? 'invite-email-error' : undefined} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy !== null}>
            {busy === 'invite' ? msg('actions.inviting') : msg('admin.pages.inviteUser')}
          </button>
        </div>
      </form>
      {users.error && !users.data ? (
        <ErrorState error={users.error} onRetry={() => void users.mutate()} />
      ) : users.isLoading || !users.data ? (
        <LoadingState />
      ) : users.data.items.length === 0 ? (
        <EmptyState>{msg('admin.pages.noUsers')}</EmptyState>
      ) : (
        <UserTable
          users={users.data.items}
          staffNames={staffNames}
          render={(u) => {
            const who = u.email ?? u.username;
            return (
              <>
                {u.status === 'FORCE_CHANGE_PASSWORD' && u.enabled && (
                  <button type="button" className="btn" disabled={busy !== null} onClick={() => void run(u.username, () => actions.resend(u.username), msg('admin.pages.invitationSentAgainTo', { who }))}>
                    {msg('admin.pages.resendInvitation')}
                  </button>
                )}
                <button type="button" className="btn" disabled={busy !== null} onClick={() => void (u.enabled ? confirmThen('disable', who, u.username, () => actions.setEnabled(u.username, false), `${who} deshabilitado.`) : run(u.username, () => actions.setEnabled(u.username, true), `${who} habilitado.`))}>
                  {u.enabled ? msg('actions.disable') : msg('actions.enable')}
                </button>
                {u.mfa && (
                  <button type="button" className="btn" disabled={busy !== null} onClick={() => void confirmThen('resetMfa', who, u.username, () => actions.resetMfa(u.username), msg('admin.pages.mfaResetDone', { who }))}>
                    {msg('admin.pages.resetMfa')}
                  </button>
                )}
                {staffNames.has(u.username) ? (
                  // Never on one's own row: the API refuses it (409 OWN_STAFF_ACCESS).
                  u.sub !== me?.sub && <button type="button" className="btn" disabled={busy !== null} onClick={() => void confirmThen('revokeStaff', who, u.username, () => actions.revokeStaff(u.username), `${who} ya no es personal SOC.`)}>
                    {msg('admin.pages.revokeSocAccess')}
                  </button>
                ) : (
                  <button type="button" className="btn" disabled={busy !== null} onClick={() => void run(u.username, () => actions.grantStaff(u.username), `${who} es ahora personal SOC.`)}>
                    {msg('admin.pages.grantSocAccess')}
                  </button>
                )}
                <button type="button" className="btn" disabled={busy !== null} onClick={() => void confirmThen('remove', who, u.username, () => actions.remove(tenantId, u.username), msg('admin.pages.removedFromTheCustomer', { who }))}>
                  {msg('admin.pages.removeFromCustomer')}
                </button>
              </>
            );
          }}
        />
      )}
    </div>
  );
}
