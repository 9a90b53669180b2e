/**
 * `/admin/access-requests` "Solicitudes de acceso" (staff only, docs/portal.md#administration): the users who signed
 * in while in no customer (`listAccessRequests`: one Query per page, newest first, "Cargar más"), pending by default
 * (the state filter lives in the URL). Per pending request: "Conceder" with the customer chosen in the row (the user is
 * added to that customer, as an invitation of an existing user) and "Descartar" (asks first). Both are audited by the
 * API; a request decided meanwhile answers 409 ACCESS_REQUEST_DECIDED, shown in the portal's language.
 */
import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { Link } from 'react-router-dom';
import { ACCESS_REQUEST_STATUSES } from '../../shared/lib/contract';
import type { AccessRequest, AccessRequestStatus } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import { useApi, useApiSWRInfinite } from '../../shared/lib/api-context';
import { formatDateTime } from '../../shared/lib/format';
import { useTenant } from '../../shared/lib/tenant';
import { DataTable, FilterSelect, ListFrame, useFilterParams } from '../../shared/ui/lists';
import { PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { t as msg } from '../../shared/lib/messages';
import { confirmTexts, useConfirm } from './confirmTexts';

/** Requests per page. */
export const ACCESS_REQUEST_PAGE_SIZE = 25;

/** A request's state in the portal's language. */
export function accessRequestStatusLabel(s: AccessRequestStatus): string {
  return s === 'pending' ? msg('admin.accessRequests.pending') : s === 'granted' ? msg('admin.accessRequests.granted') : msg('admin.accessRequests.dismissed');
}

export function AccessRequestsPage() {
  const api = useApi();
  const { mutate } = useSWRConfig();
  const { params, set } = useFilterParams();
  const { tenants } = useTenant();
  const raw = params.get('status');
  const status: AccessRequestStatus = (ACCESS_REQUEST_STATUSES as readonly string[]).includes(raw ?? '') ? (raw as AccessRequestStatus) : 'pending';
  const list = useApiSWRInfinite('listAccessRequests', { query: { status, limit: ACCESS_REQUEST_PAGE_SIZE } });
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [dialog, ask] = useConfirm();
  const names = new Map(tenants.map((t) => [t.id, t.name]));
  const who = (r: AccessRequest) => r.email ?? r.id;

  const act = async (r: AccessRequest, run: () => Promise<unknown>, ok: string) => {
    setBusy(r.id);
    try {
      await run();
      setNotice({ tone: 'ok', text: ok });
      await list.mutate();
      // The customer's user list and counts changed too.
      await mutate((key) => Array.isArray(key) && ['listTenantUsers', 'getTenant', 'listTenantSummaries'].includes(key[0] as string));
    } catch (err) {
      const e = toApiError(err);
      setNotice({ tone: 'error', text: e.requestId ? msg('admin.pages.errorWithReference', { message: e.userMessage, id: e.requestId }) : e.userMessage });
      await list.mutate();
    }
    setBusy(null);
  };
  const grant = (r: AccessRequest) => {
    const tenantId = chosen[r.id];
    if (!tenantId) return setNotice({ tone: 'error', text: msg('admin.accessRequests.chooseCustomerFirst', { who: who(r) }) });
    void act(r, () => api.call('grantAccessRequest', { params: { id: r.id }, body: { tenantId } }), msg('admin.accessRequests.grantedTo', { who: who(r), customer: names.get(tenantId) ?? tenantId }));
  };
  const dismiss = async (r: AccessRequest) => {
    if (!(await ask(confirmTexts('dismissAccessRequest', who(r))))) return;
    await act(r, () => api.call('dismissAccessRequest', { params: { id: r.id } }), msg('admin.accessRequests.dismissedNotice', { who: who(r) }));
  };

  return (
    <section>
      <p className="breadcrumb">
        <Link to="/admin/tenants">{msg('menu.tenants')}</Link> · <Link to="/admin/staff">{msg('menu.staff')}</Link> · <span>{msg('menu.accessRequests')}</span>
      </p>
      <PageHeader title={msg('menu.accessRequests')} />
      <div className="card">
        <p className="muted">{msg('admin.accessRequests.intro')}</p>
        {dialog}
        <form className="filters" role="search" aria-label={msg('admin.accessRequests.filter')} onSubmit={(e) => e.preventDefault()}>
          <FilterSelect id="ar-status" label={msg('admin.accessRequests.state')} all={null} value={status} options={ACCESS_REQUEST_STATUSES.map((s) => [s, accessRequestStatusLabel(s)] as const)} onChange={(v) => set('status', v === 'pending' ? '' : v)} />
        </form>
        {notice && (
          <div className={notice.tone === 'ok' ? 'notice-ok' : 'error-state'} role={notice.tone === 'ok' ? 'status' : 'alert'}>
            <p>{notice.text}</p>
          </div>
        )}
        <ListFrame list={list} empty={status === 'pending' ? msg('admin.accessRequests.nonePending') : msg('admin.accessRequests.none')}>
          <DataTable
            caption={msg('admin.accessRequests.caption')}
            rows={list.items}
            rowKey={(r) => r.id}
            columns={[
              { label: msg('fields.user.user'), cell: (r) => <>{r.email ?? r.id}{r.email && !r.emailVerified && <span className="muted small"> {msg('admin.accessRequests.unverified')}</span>}</> },
              { label: msg('admin.accessRequests.origin'), cell: (r) => r.provider ?? (r.emailDomain ? msg('admin.accessRequests.ownAccount', { domain: r.emailDomain }) : msg('admin.accessRequests.ownAccountNoDomain')) },
              { label: msg('admin.accessRequests.requestedAt'), cell: (r) => <time dateTime={r.requestedAt}>{formatDateTime(r.requestedAt)}</time> },
              ...(status === 'pending'
                ? [
                    {
                      label: msg('fields.common.actions'),
                      cell: (r: AccessRequest) => (
                        <div className="row-actions">
                          <label className="visually-hidden" htmlFor={`ar-tenant-${r.id}`}>
                            {msg('admin.accessRequests.customerFor', { who: who(r) })}
                          </label>
                          <select id={`ar-tenant-${r.id}`} value={chosen[r.id] ?? ''} onChange={(e) => setChosen({ ...chosen, [r.id]: e.target.value })}>
                            <option value="">{msg('admin.accessRequests.chooseCustomer')}</option>
                            {tenants.map((t) => (
                              <option key={t.id} value={t.id}>
                                {t.name}
                              </option>
                            ))}
                          </select>
                          <button type="button" className="btn btn-primary" disabled={busy !== null} onClick={() => grant(r)}>
                            {msg('admin.accessRequests.grant')}
                          </button>
                          <button type="button" className="btn" disabled={busy !== null} onClick={() => void dismiss(r)}>
                            {msg('actions.dismiss')}
                          </button>
                        </div>
                      ),
                    },
                  ]
                : [
                    { label: msg('admin.accessRequests.state'), cell: (r: AccessRequest) => accessRequestStatusLabel(r.status) + (r.tenantId ? ` · ${names.get(r.tenantId) ?? r.tenantId}` : '') },
                    { label: msg('admin.accessRequests.decidedBy'), cell: (r: AccessRequest) => (r.decidedAt ? `${r.decidedBy ?? ''} · ${formatDateTime(r.decidedAt)}` : '—') },
                  ]),
            ]}
          />
        </ListFrame>
      </div>
    </section>
  );
}
