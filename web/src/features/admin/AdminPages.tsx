/**
 * Administration screens (staff only, docs/portal.md#administration):
 *  - `/admin/tenants`: the customers with their user and device counts, and "Crear cliente" (id + name);
 *  - `/admin/tenants/{tenantId}`: the customer's name, contract SLA targets per severity (response and
 *    resolution, minutes) and device availability target; its users with status (Cognito's
 *    FORCE_CHANGE_PASSWORD / CONFIRMED, or disabled) and MFA state, "Invitar usuario", and per
 *    user: resend the invitation, disable/enable, remove from the customer, reset MFA, grant/revoke staff
 *    (disable, remove, reset MFA and revoke staff ask first in a dialog naming the user: confirmTexts.ts and the shared ConfirmDialog);
 *    and "Proveedor de identidad de la empresa", the customer's own OIDC/SAML provider (IdentityProviderCard.tsx);
 *  - `/admin/staff`: the staff (`admin` group) with "Quitar acceso SOC".
 * The API refuses all of it to anyone but staff; errors show in the portal's language with the request reference.
 */
import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { SEVERITIES } from '../../shared/lib/contract';
import type { PoolUser, Severity, SlaTargets, Tenant, TenantSummary } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import { formatDateTime, SEVERITY_LABELS } from '../../shared/lib/format';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import { DataTable, ListFrame } from '../../shared/ui/lists';
import '../../shared/ui/screens.css';
import { useAdminActions, useStaff, useTenantDetail, useTenants, useTenantUsers } from './api';
import { useTenant } from '../../shared/lib/tenant';
import { confirmTexts, useConfirm, type ConfirmAction } from './confirmTexts';
import { IdentityProviderCard } from './IdentityProviderCard';
import { t as msg } from '../../shared/lib/messages';

type Notice = { tone: 'ok' | 'error'; text: string } | null;

function NoticeBox({ notice }: { notice: Notice }) {
  if (!notice) return null;
  return (
    <div className={notice.tone === 'ok' ? 'notice-ok' : 'error-state'} role={notice.tone === 'ok' ? 'status' : 'alert'}>
      <p>{notice.text}</p>
    </div>
  );
}

/** Runs a write; resolves with an ok/error notice (the API error's message and reference on error). */
async function attempt(action: () => Promise<unknown>, ok: string): Promise<Notice> {
  try {
    await action();
    return { tone: 'ok', text: ok };
  } catch (err) {
    const e = toApiError(err);
    return { tone: 'error', text: e.requestId ? msg('admin.pages.errorWithReference', { message: e.userMessage, id: e.requestId }) : e.userMessage };
  }
}

/** Cognito user status and enabled flag, in the portal's language. */
export function userStatusLabel(u: Pick<PoolUser, 'status' | 'enabled'>): string {
  if (!u.enabled) return msg('admin.pages.disabled');
  switch (u.status) {
    case 'FORCE_CHANGE_PASSWORD':
      return msg('admin.pages.invitedTemporaryPassword');
    case 'CONFIRMED':
      return msg('admin.pages.active');
    case 'RESET_REQUIRED':
      return msg('admin.pages.mustResetThePassword');
    case 'UNCONFIRMED':
      return msg('admin.pages.unconfirmed');
    default:
      return u.status;
  }
}

function AdminNav() {
  return (
    <p className="breadcrumb">
      <Link to="/admin/tenants">{msg('admin.pages.customers')}</Link> · <Link to="/admin/staff">{msg('admin.pages.socStaff')}</Link> ·{' '}
      <Link to="/admin/access-requests">{msg('admin.pages.accessRequests')}</Link>
    </p>
  );
}

// ------------------------------------------------------------------------------------------ tenants

export function TenantsPage() {
  const list = useTenants();
  const rows = list.items as TenantSummary[];
  return (
    <section>
      <AdminNav />
      <PageHeader title={msg('admin.pages.customers')} />
      <CreateTenantForm />
      <div className="card">
        <h2>{msg('admin.pages.registeredCustomers')}</h2>
        <ListFrame list={list} empty={msg('admin.pages.noCustomersRegistered')}>
          <DataTable
            caption={msg('admin.pages.customersWithTheirUsers')}
            rowKey={(t) => t.id}
            rows={rows}
            columns={[
              { label: msg('admin.pages.customer'), cell: (t) => <Link to={`/admin/tenants/${encodeURIComponent(t.id)}`}>{t.name}</Link> },
              { label: msg('admin.pages.id'), cell: (t) => t.id },
              { label: msg('admin.pages.users'), cell: (t) => t.userCount ?? '—' },
              { label: msg('admin.pages.devices'), cell: (t) => t.deviceCount ?? '—' },
              { label: msg('admin.pages.availabilityTarget'), cell: (t) => (t.availabilityTargetPct !== undefined ? `${t.availabilityTargetPct} %` : msg('admin.pages.default')) },
            ]}
          />
          <p className="muted">{msg('admin.pages.customersShown', { count: rows.length })}</p>
        </ListFrame>
      </div>
    </section>
  );
}

const TENANT_ID_RE = /^[a-z0-9][a-z0-9-]{1,62}$/;

function CreateTenantForm() {
  const { createTenant } = useAdminActions();
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ id?: string; name?: string }>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (!TENANT_ID_RE.test(id)) next.id = msg('admin.pages.n2To63Characters');
    if (name.trim().length < 1 || name.trim().length > 120) next.name = msg('admin.pages.enterTheNameUp');
    setErrors(next);
    if (next.id || next.name) return;
    setBusy(true);
    const n = await attempt(() => createTenant({ tenantId: id, name: name.trim() }), msg('admin.pages.customerCreated', { v0: name.trim() }));
    setNotice(n);
    if (n?.tone === 'ok') {
      setId('');
      setName('');
    }
    setBusy(false);
  };
  return (
    <form className="card form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <h2>{msg('admin.pages.createCustomer')}</h2>
      <NoticeBox notice={notice} />
      <div className="field-row">
        <Field id="tenant-id" label={msg('admin.pages.idGroupName')} error={errors.id}>
          <input id="tenant-id" value={id} autoComplete="off" maxLength={63} aria-invalid={errors.id ? true : undefined} aria-describedby={errors.id ? 'tenant-id-error' : undefined} onChange={(e) => setId(e.target.value.trim().toLowerCase())} />
        </Field>
        <Field id="tenant-name" label={msg('admin.pages.name')} error={errors.name}>
          <input id="tenant-name" value={name} autoComplete="off" maxLength={120} aria-invalid={errors.name ? true : undefined} aria-describedby={errors.name ? 'tenant-name-error' : undefined} onChange={(e) => setName(e.target.value)} />
        </Field>
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? msg('admin.pages.creating') : msg('admin.pages.createCustomer')}
        </button>
      </div>
    </form>
  );
}

function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

// ------------------------------------------------------------------------------------------ one tenant

export function TenantAdminPage() {
  const { tenantId } = useParams();
  const tenant = useTenantDetail(tenantId);
  return (
    <section>
      <AdminNav />
      {tenant.error && !tenant.data ? (
        <>
          <PageHeader title={msg('admin.pages.customer2', { v0: tenantId ?? '' })} />
          <ErrorState error={tenant.error} onRetry={() => void tenant.mutate()} />
        </>
      ) : tenant.isLoading || !tenant.data ? (
        <LoadingState />
      ) : (
        <>
          <PageHeader title={msg('admin.pages.customer3', { name: tenant.data.name })} />
          <TenantSettingsForm key={tenant.data.id} tenant={tenant.data} />
          <IdentityProviderCard tenantId={tenant.data.id} tenantName={tenant.data.name} />
          <UsersCard tenantId={tenant.data.id} tenantName={tenant.data.name} />
        </>
      )}
    </section>
  );
}

type TargetDraft = Record<Severity, { response: string; resolution: string }>;

function draftOf(t?: SlaTargets): TargetDraft {
  const out = {} as TargetDraft;
  for (const s of SEVERITIES) out[s] = { response: t?.[s] ? String(t[s].responseMinutes) : '', resolution: t?.[s] ? String(t[s].resolutionMinutes) : '' };
  return out;
}

/** Whole minutes 1–525,600 (one year), the contract's limits, or null. */
function minutes(v: string): number | null {
  if (!/^\d+$/.test(v.trim())) return null;
  const n = Number(v.trim());
  return n >= 1 && n <= 525_600 ? n : null;
}

function TenantSettingsForm({ tenant }: { tenant: Tenant }) {
  const { updateTenant } = useAdminActions();
  const [name, setName] = useState(tenant.name);
  const [targets, setTargets] = useState<TargetDraft>(() => draftOf(tenant.slaTargets));
  const [availability, setAvailability] = useState(tenant.availabilityTargetPct !== undefined ? String(tenant.availabilityTargetPct) : '');
  // Days before a resolved incident closes automatically (docs/sla.md#automatic-closure); empty = the default 7.
  const [autoClose, setAutoClose] = useState(tenant.autoCloseDays !== undefined ? String(tenant.autoCloseDays) : '');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (name.trim().length < 1 || name.trim().length > 120) return setError(msg('admin.pages.enterTheNameUp'));
    const slaTargets: SlaTargets = {};
    for (const s of SEVERITIES) {
      const { response, resolution } = targets[s];
      if (response.trim() === '' && resolution.trim() === '') continue;
      const r = minutes(response);
      const z = minutes(resolution);
      if (r === null || z === null) return setError(msg('admin.pages.enterResponseAndResolution', { v0: SEVERITY_LABELS[s] }));
      slaTargets[s] = { responseMinutes: r, resolutionMinutes: z };
    }
    const pct = availability.trim() === '' ? undefined : Number(availability.replace(',', '.'));
    if (pct !== undefined && (!Number.isFinite(pct) || pct < 0 || pct > 100)) return setError(msg('admin.pages.theAvailabilityTargetIs'));
    const days = autoClose.trim() === '' ? undefined : /^\d+$/.test(autoClose.trim()) ? Number(autoClose.trim()) : NaN;
    if (days !== undefined && !(days >= 1 && days <= 90)) return setError(msg('admin.pages.autoCloseDaysInvalid'));
    setError(null);
    setBusy(true);
    setNotice(
      await attempt(
        () => updateTenant(tenant.id, { name: name.trim(), slaTargets, ...(pct !== undefined ? { availabilityTargetPct: pct } : {}), ...(days !== undefined ? { autoCloseDays: days } : {}) }),
        msg('admin.pages.changesSavedTheNew'),
      ),
    );
    setBusy(false);
  };
  const setTarget = (s: Severity, k: 'response' | 'resolution', v: string) => setTargets((t) => ({ ...t, [s]: { ...t[s], [k]: v } }));

  return (
    <form className="card form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <h2>{msg('admin.pages.detailsAndContract')}</h2>
      <NoticeBox notice={notice} />
      <div className="field-row">
        <Field id="tenant-edit-name" label={msg('admin.pages.name')}>
          <input id="tenant-edit-name" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field id="tenant-availability" label={msg('admin.pages.availabilityTarget2')}>
          <input id="tenant-availability" inputMode="decimal" value={availability} placeholder={msg('admin.pages.default')} onChange={(e) => setAvailability(e.target.value)} />
        </Field>
        <Field id="tenant-auto-close" label={msg('admin.pages.autoCloseDays')}>
          <input id="tenant-auto-close" inputMode="numeric" value={autoClose} placeholder={msg('admin.pages.autoCloseDaysDefault')} onChange={(e) => setAutoClose(e.target.value)} />
        </Field>
      </div>
      <table className="sla-targets">
        <caption>{msg('admin.pages.slaTargetsBySeverity')}</caption>
        <thead>
          <tr>
            <th scope="col">{msg('admin.pages.severity')}</th>
            <th scope="col">{msg('admin.pages.response')}</th>
            <th scope="col">{msg('admin.pages.resolution')}</th>
          </tr>
        </thead>
        <tbody>
          {SEVERITIES.map((s) => (
            <tr key={s}>
              <th scope="row">{SEVERITY_LABELS[s]}</th>
              <td>
                <input aria-label={msg('admin.pages.responseMinutes', { v0: SEVERITY_LABELS[s] })} inputMode="numeric" value={targets[s].response} onChange={(e) => setTarget(s, 'response', e.target.value)} />
              </td>
              <td>
                <input aria-label={msg('admin.pages.resolutionMinutes', { v0: SEVERITY_LABELS[s] })} inputMode="numeric" value={targets[s].resolution} onChange={(e) => setTarget(s, 'resolution', e.target.value)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? msg('admin.pages.saving') : msg('admin.pages.saveChanges')}
        </button>
      </div>
    </form>
  );
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function UsersCard({ tenantId, tenantName }: { tenantId: string; tenantName: string }) {
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
    if (!EMAIL_RE.test(v) || v.length > 254) return setEmailError(msg('admin.pages.enterAValidEmail'));
    setEmailError(null);
    await run('invite', () => actions.invite(tenantId, v), msg('admin.pages.invitationSentToThey', { v }));
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
            {busy === 'invite' ? msg('admin.pages.inviting') : msg('admin.pages.inviteUser')}
          </button>
        </div>
      </form>
      {users.error && !users.data ? (
        <ErrorState error={users.error} onRetry={() => void users.mutate()} />
      ) : users.isLoading || !users.data ? (
        <LoadingState />
      ) : users.data.items.length === 0 ? (
        <EmptyState>{msg('admin.pages.thisCustomerHasNo')}</EmptyState>
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
                  {u.enabled ? msg('admin.pages.disable') : msg('admin.pages.enable')}
                </button>
                {u.mfa && (
                  <button type="button" className="btn" disabled={busy !== null} onClick={() => void confirmThen('resetMfa', who, u.username, () => actions.resetMfa(u.username), msg('admin.pages.mfaOfResetThey', { who }))}>
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

function UserTable({ users, staffNames, render }: { users: PoolUser[]; staffNames: Set<string>; render: (u: PoolUser) => ReactNode }) {
  return (
    <table className="data-table responsive">
      <caption className="visually-hidden">{msg('admin.pages.usersWithTheirStatus')}</caption>
      <thead>
        <tr>
          <th scope="col">{msg('admin.pages.user')}</th>
          <th scope="col">{msg('admin.pages.status')}</th>
          <th scope="col">{msg('admin.pages.mfa')}</th>
          <th scope="col">{msg('admin.pages.created')}</th>
          <th scope="col">{msg('admin.pages.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {users.map((u) => (
          <tr key={u.username}>
            <td data-label={msg('admin.pages.user')}>
              {u.email ?? u.username}
              {staffNames.has(u.username) && <span className="muted small"> {msg('admin.pages.soc')}</span>}
            </td>
            <td data-label={msg('admin.pages.status')}>{userStatusLabel(u)}</td>
            <td data-label={msg('admin.pages.mfa')}>{u.mfa ? msg('admin.pages.on') : msg('admin.pages.notSetUp')}</td>
            <td data-label={msg('admin.pages.created')}>{u.createdAt ? formatDateTime(u.createdAt) : '—'}</td>
            <td data-label={msg('admin.pages.actions')}>
              <div className="row-actions">{render(u)}</div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

// ------------------------------------------------------------------------------------------ staff

export function StaffPage() {
  const staff = useStaff();
  const { revokeStaff } = useAdminActions();
  const { me } = useTenant();
  const [dialog, ask] = useConfirm();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  return (
    <section>
      <AdminNav />
      <PageHeader title={msg('admin.pages.socStaff')} />
      <div className="card">
        <p className="muted">{msg('admin.pages.membersOfTheStaff')}</p>
        {dialog}
        <NoticeBox notice={notice} />
        {staff.error && !staff.data ? (
          <ErrorState error={staff.error} onRetry={() => void staff.mutate()} />
        ) : staff.isLoading || !staff.data ? (
          <LoadingState />
        ) : staff.data.items.length === 0 ? (
          <EmptyState />
        ) : (
          <UserTable
            users={staff.data.items}
            staffNames={new Set()}
              render={(u) =>
              // Never on one's own row: the API refuses it (409 OWN_STAFF_ACCESS).
              u.sub === me?.sub ? (
                <span className="muted small">{msg('admin.pages.you')}</span>
              ) : (
              <button
                type="button"
                className="btn"
                disabled={busy !== null}
                onClick={() =>
                  void (async () => {
                    if (!(await ask(confirmTexts('revokeStaff', u.email ?? u.username)))) return;
                    setBusy(u.username);
                    setNotice(await attempt(() => revokeStaff(u.username), `${u.email ?? u.username} ya no es personal SOC.`));
                    setBusy(null);
                  })()
                }
              >
                {msg('admin.pages.revokeSocAccess')}
              </button>
            )
            }
          />
        )}
      </div>
    </section>
  );
}
