/**
 * `/audit` "Registro de auditoría" (docs/portal.md#audit-log): the audit entries, newest first, cursor-paged
 * ("Cargar más"). Customers see their active tenant's log only (the API enforces it); staff see every
 * tenant's, with filters (customer, action, actor, period) kept in the URL. "Exportar CSV" downloads the
 * server's CSV of the same filters (`api.csv('listAuditLog')`), which writes an audit entry of its own.
 */
import { AUDIT_ACTIONS } from '../../shared/lib/contract';
import type { AuditAction, AuditEntry, ListAuditQuery } from '../../shared/lib/contract';
import { useApi, useApiSWRInfinite } from '../../shared/lib/api-context';
import { formatDateTime } from '../../shared/lib/format';
import { useTenant } from '../../shared/lib/tenant';
import { convertCsv, csvDialect, csvFilename, downloadCsv, type CsvVariant } from '../../shared/ui/csv';
import { CsvButtons } from '../../shared/ui/CsvButtons';
import { CsvExportStatusLine, useCsvExport } from '../../shared/ui/useCsvExport';
import { DateRangeError, DateRangeFields, dateRangeError } from '../../shared/ui/DateRange';
import { DataTable, FilterSelect, ListFrame, useFilterParams } from '../../shared/ui/lists';
import { PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { t as msg } from '../../shared/lib/messages';

/** Page size of the audit log. */
export const AUDIT_PAGE_SIZE = 50;

/** Names of the audit actions in the portal's language (`AUDIT_ACTIONS` of the contract). */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  get 'incident.create'() {
    return msg('audit.log.incidentCreated');
  },
  get 'incident.update'() {
    return msg('audit.log.incidentUpdated');
  },
  get 'incident.triage'() {
    return msg('audit.log.incidentTriaged');
  },
  get 'incident.comment'() {
    return msg('audit.log.incidentComment');
  },
  get 'incident.closure_request'() {
    return msg('audit.log.closureRequested');
  },
  get 'incident.reopen'() {
    return msg('audit.log.incidentReopened');
  },
  get 'incident.confirm_resolution'() {
    return msg('audit.log.resolutionConfirmed');
  },
  get 'incident.auto_close'() {
    return msg('audit.log.incidentAutoClosed');
  },
  get 'incident.attachment'() {
    return msg('audit.log.attachmentUploaded');
  },
  get 'alarm.acknowledge'() {
    return msg('audit.log.alarmAcknowledged');
  },
  get 'alarm.clear'() {
    return msg('audit.log.alarmCleared');
  },
  get 'recommendation.update'() {
    return msg('audit.log.recommendationUpdated');
  },
  get 'tenant.create'() {
    return msg('audit.log.customerCreated');
  },
  get 'tenant.update'() {
    return msg('audit.log.customerUpdated');
  },
  get 'user.invite'() {
    return msg('audit.log.userInvited');
  },
  get 'user.resend_invitation'() {
    return msg('audit.log.invitationResent');
  },
  get 'user.enable'() {
    return msg('audit.log.userEnabled');
  },
  get 'user.disable'() {
    return msg('audit.log.userDisabled');
  },
  get 'user.remove_from_tenant'() {
    return msg('audit.log.userRemovedFromCustomer');
  },
  'user.reset_mfa': 'MFA restablecida',
  get 'user.access_request'() {
    return msg('audit.log.accessRequested');
  },
  get 'access_request.grant'() {
    return msg('audit.log.accessRequestGranted');
  },
  get 'access_request.dismiss'() {
    return msg('audit.log.accessRequestDismissed');
  },
  get 'tenant.identity_provider_set'() {
    return msg('audit.log.identityProviderSet');
  },
  get 'tenant.identity_provider_delete'() {
    return msg('audit.log.identityProviderDeleted');
  },
  get 'staff.grant'() {
    return msg('audit.log.staffGranted');
  },
  get 'staff.revoke'() {
    return msg('audit.log.staffRevoked');
  },
  get 'export.report'() {
    return msg('audit.log.reportExported');
  },
  get 'export.analytics'() {
    return msg('audit.log.analyticsExported');
  },
  get 'export.audit'() {
    return msg('audit.log.auditLogExported');
  },
  get 'escalation_contacts.update'() {
    return msg('audit.log.escalationContactsUpdated');
  },
  get 'maintenance.create'() {
    return msg('audit.log.maintenanceCreated');
  },
  get 'maintenance.update'() {
    return msg('audit.log.maintenanceUpdated');
  },
  get 'maintenance.delete'() {
    return msg('audit.log.maintenanceDeleted');
  },
  get 'team.invite'() {
    return msg('audit.log.teamMemberInvited');
  },
  get 'team.update'() {
    return msg('audit.log.teamMemberUpdated');
  },
  get 'team.remove'() {
    return msg('audit.log.teamMemberRemoved');
  },
};

/** `before → after` of the changed fields as one line per field. */
function changesText(e: AuditEntry): string[] {
  const fields = new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})]);
  const show = (v: unknown) => (v === undefined || v === null ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
  return [...fields].map((f) => `${f}: ${show(e.before?.[f])} → ${show(e.after?.[f])}`);
}

/**
 * The people the loaded entries name, user name or `sub` → e-mail, with no lookup of its own (no Cognito call): the
 * e-mail stored in an entry (`target.name`, `actor.email`), and for entries written before `target.name` existed the
 * `after.email` of the user's invitation or access request. In a pool whose users sign in with their e-mail the user
 * name is the `sub`, so an actor without a verified e-mail in its token is named too when another entry names it.
 */
export function peopleOf(entries: readonly AuditEntry[]): Map<string, string> {
  const people = new Map<string, string>();
  for (const e of entries) {
    if (e.actor.email && !people.has(e.actor.sub)) people.set(e.actor.sub, e.actor.email);
    if (e.target.type !== 'user') continue;
    const email = e.target.name ?? (typeof e.after?.email === 'string' ? e.after.email : undefined);
    if (email && !people.has(e.target.id)) people.set(e.target.id, email);
  }
  return people;
}

/** The `listAuditLog` query of the URL's filters; customers always ask for their active tenant. */
export function auditQuery(params: URLSearchParams, isStaff: boolean, activeTenant: string | null): ListAuditQuery {
  const q: ListAuditQuery = { limit: AUDIT_PAGE_SIZE };
  const tenant = isStaff ? params.get('tenant') : activeTenant;
  if (tenant) q.tenant = tenant;
  const action = params.get('action');
  if (action && (AUDIT_ACTIONS as readonly string[]).includes(action)) q.action = action as AuditAction;
  const actor = params.get('actor');
  if (actor) q.actor = actor;
  const from = params.get('from');
  const to = params.get('to');
  if (from) q.from = `${from}T00:00:00.000Z`;
  if (to) q.to = `${to}T23:59:59.999Z`;
  return q;
}

export function AuditLogPage() {
  const api = useApi();
  const { params, set } = useFilterParams();
  const { me, tenants, activeTenant } = useTenant();
  const isStaff = !!me?.isAdmin;
  const query = auditQuery(params, isStaff, activeTenant);
  const badRange = dateRangeError(params.get('from') ?? '', params.get('to') ?? '') !== null;
  const list = useApiSWRInfinite('listAuditLog', badRange ? null : { query });
  const names = new Map(tenants.map((t) => [t.id, t.name]));
  const people = peopleOf(list.items);

  const csvExport = useCsvExport(async (variant: CsvVariant) => {
    const { limit: _limit, ...rest } = query;
    const csv = await api.csv('listAuditLog', { query: rest });
    // The API sends the standard CSV; the Excel variant is the same cells in the language's dialect.
    downloadCsv(csvFilename(`auditoria-${new Date().toISOString().slice(0, 10)}`, variant), variant === 'excel' ? convertCsv(csv, csvDialect(variant)) : csv);
  });

  return (
    <section>
      <PageHeader title={msg('menu.auditLog')}>
        <CsvButtons label={msg('actions.exportCsv')} disabled={badRange || csvExport.busy} onDownload={(v) => void csvExport.start(v)} />
      </PageHeader>
      <form className="card filters" role="search" aria-label={msg('audit.log.filterTheLog')} onSubmit={(e) => e.preventDefault()}>
        {isStaff && <FilterSelect id="a-tenant" label={msg('fields.common.customer')} value={params.get('tenant') ?? ''} options={tenants.map((t) => [t.id, t.name] as const)} onChange={(v) => set('tenant', v)} />}
        <FilterSelect id="a-action" label={msg('audit.log.action')} all={msg('audit.log.all')} value={params.get('action') ?? ''} options={AUDIT_ACTIONS.map((a) => [a, AUDIT_ACTION_LABELS[a]] as const)} onChange={(v) => set('action', v)} />
        <div className="field">
          <label htmlFor="a-actor">{msg('audit.log.user')}</label>
          <input id="a-actor" type="search" value={params.get('actor') ?? ''} placeholder={msg('audit.log.emailOrSub')} onChange={(e) => set('actor', e.target.value.trim())} />
        </div>
        <DateRangeFields idPrefix="a" from={params.get('from') ?? ''} to={params.get('to') ?? ''} errorId="a-range-error" onChange={set} />
      </form>
      <CsvExportStatusLine status={csvExport.status} />
      {badRange ? (
        <DateRangeError id="a-range-error" from={params.get('from') ?? ''} to={params.get('to') ?? ''} />
      ) : (
        <ListFrame list={list} empty={msg('audit.log.noMatches')}>
          <DataTable
            caption={msg('audit.log.tableCaption')}
            rows={list.items}
            rowKey={(e) => e.id}
            columns={[
              { label: msg('audit.log.date'), cell: (e) => <time dateTime={e.at}>{formatDateTime(e.at)}</time> },
              ...(isStaff ? [{ label: msg('fields.common.customer'), cell: (e: AuditEntry) => names.get(e.tenantId) ?? e.tenantId }] : []),
              { label: msg('audit.log.user'), cell: (e) => e.actor.email ?? people.get(e.actor.sub) ?? e.actor.sub },
              { label: msg('audit.log.action'), cell: (e) => AUDIT_ACTION_LABELS[e.action] ?? e.action },
              {
                label: msg('audit.log.target'),
                // A person by the e-mail stored at write time (or named by another loaded entry: `peopleOf`), not by its internal id.
                cell: (e) => {
                  const person = e.target.name ?? (e.target.type === 'user' ? people.get(e.target.id) : undefined);
                  return person ? (
                    <span title={`${e.target.type} ${e.target.id}`}>{person}</span>
                  ) : (
                    <>
                      {e.target.type} {e.target.id}
                    </>
                  );
                },
              },
              { label: msg('audit.log.changes'), cell: (e) => changesText(e).map((line) => <div key={line}>{line}</div>), cellClass: () => 'audit-changes' },
              {
                label: msg('audit.log.source'),
                cell: (e) => (
                  <>
                    {e.sourceIp} · {e.requestId}
                  </>
                ),
                cellClass: () => 'small',
              },
            ]}
          />
        </ListFrame>
      )}
    </section>
  );
}
