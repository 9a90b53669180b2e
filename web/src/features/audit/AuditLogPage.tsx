/**
 * `/audit` "Registro de auditoría" (docs/portal.md#audit-log): the audit entries, newest first, cursor-paged
 * ("Cargar más"). Customers see their active tenant's log only (the API enforces it); staff see every
 * tenant's, with filters (customer, action, actor, period) kept in the URL. "Exportar CSV" downloads the
 * server's CSV of the same filters (`api.csv('listAuditLog')`), which writes an audit entry of its own.
 */
import { useState } from 'react';
import { AUDIT_ACTIONS } from '../../shared/lib/contract';
import type { AuditAction, AuditEntry, ListAuditQuery } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import { useApi, useApiSWRInfinite } from '../../shared/lib/api-context';
import { formatDateTime } from '../../shared/lib/format';
import { useTenant } from '../../shared/lib/tenant';
import { convertCsv, csvDialect, csvFilename, downloadCsv, type CsvVariant } from '../../shared/ui/csv';
import { CsvButtons } from '../../shared/ui/CsvButtons';
import { DateRangeError, DateRangeFields, dateRangeError } from '../../shared/ui/DateRange';
import { FilterSelect, ListFrame, useFilterParams } from '../../shared/ui/lists';
import { PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';

/** Page size of the audit log. */
export const AUDIT_PAGE_SIZE = 50;

/** Spanish names of the audit actions (`AUDIT_ACTIONS` of the contract). */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'incident.create': 'Incidente creado',
  'incident.update': 'Incidente actualizado',
  'incident.triage': 'Incidente clasificado',
  'incident.comment': 'Comentario en incidente',
  'incident.closure_request': 'Cierre solicitado',
  'incident.reopen': 'Incidente reabierto',
  'incident.confirm_resolution': 'Resolución confirmada',
  'alarm.acknowledge': 'Alarma reconocida',
  'recommendation.update': 'Recomendación actualizada',
  'tenant.create': 'Cliente creado',
  'tenant.update': 'Cliente modificado',
  'user.invite': 'Usuario invitado',
  'user.resend_invitation': 'Invitación reenviada',
  'user.enable': 'Usuario habilitado',
  'user.disable': 'Usuario deshabilitado',
  'user.remove_from_tenant': 'Usuario quitado del cliente',
  'user.reset_mfa': 'MFA restablecida',
  'user.access_request': 'Acceso solicitado (cuenta sin cliente)',
  'staff.grant': 'Acceso SOC concedido',
  'staff.revoke': 'Acceso SOC retirado',
  'export.report': 'Informe exportado',
  'export.analytics': 'Analítica exportada',
  'export.audit': 'Registro de auditoría exportado',
};

/** `before → after` of the changed fields as one line per field. */
function changesText(e: AuditEntry): string[] {
  const fields = new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})]);
  const show = (v: unknown) => (v === undefined || v === null ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
  return [...fields].map((f) => `${f}: ${show(e.before?.[f])} → ${show(e.after?.[f])}`);
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
  const [exporting, setExporting] = useState<string | null>(null);
  const names = new Map(tenants.map((t) => [t.id, t.name]));

  const onExport = async (variant: CsvVariant) => {
    setExporting('Preparando CSV…');
    try {
      const { limit: _limit, ...rest } = query;
      const csv = await api.csv('listAuditLog', { query: rest });
      // The API sends the standard CSV; the Excel variant is the same cells in the language's dialect.
      downloadCsv(csvFilename(`auditoria-${new Date().toISOString().slice(0, 10)}`, variant), variant === 'excel' ? convertCsv(csv, csvDialect(variant)) : csv);
      setExporting('CSV descargado.');
    } catch (err) {
      setExporting(`No se pudo exportar: ${toApiError(err).userMessage}`);
    }
  };

  return (
    <section>
      <PageHeader title="Registro de auditoría">
        <CsvButtons label="Exportar CSV" disabled={badRange || exporting === 'Preparando CSV…'} onDownload={(v) => void onExport(v)} />
      </PageHeader>
      <form className="card filters" role="search" aria-label="Filtrar el registro" onSubmit={(e) => e.preventDefault()}>
        {isStaff && <FilterSelect id="a-tenant" label="Cliente" value={params.get('tenant') ?? ''} options={tenants.map((t) => [t.id, t.name] as const)} onChange={(v) => set('tenant', v)} />}
        <FilterSelect id="a-action" label="Acción" all="Todas" value={params.get('action') ?? ''} options={AUDIT_ACTIONS.map((a) => [a, AUDIT_ACTION_LABELS[a]] as const)} onChange={(v) => set('action', v)} />
        <div className="field">
          <label htmlFor="a-actor">Usuario</label>
          <input id="a-actor" type="search" value={params.get('actor') ?? ''} placeholder="correo o sub" onChange={(e) => set('actor', e.target.value.trim())} />
        </div>
        <DateRangeFields idPrefix="a" from={params.get('from') ?? ''} to={params.get('to') ?? ''} errorId="a-range-error" onChange={set} />
      </form>
      {exporting && (
        <p role="status" className="muted small">
          {exporting}
        </p>
      )}
      {badRange ? (
        <DateRangeError id="a-range-error" from={params.get('from') ?? ''} to={params.get('to') ?? ''} />
      ) : (
        <ListFrame list={list} empty="No hay registros en el registro de auditoría para estos filtros.">
          <table className="data-table responsive">
            <caption className="visually-hidden">Registro de auditoría, lo más reciente primero</caption>
            <thead>
              <tr>
                <th scope="col">Fecha</th>
                {isStaff && <th scope="col">Cliente</th>}
                <th scope="col">Usuario</th>
                <th scope="col">Acción</th>
                <th scope="col">Objeto</th>
                <th scope="col">Cambios</th>
                <th scope="col">Origen</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((e) => (
                <tr key={e.id}>
                  <td data-label="Fecha">
                    <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                  </td>
                  {isStaff && <td data-label="Cliente">{names.get(e.tenantId) ?? e.tenantId}</td>}
                  <td data-label="Usuario">{e.actor.email ?? e.actor.sub}</td>
                  <td data-label="Acción">{AUDIT_ACTION_LABELS[e.action] ?? e.action}</td>
                  <td data-label="Objeto">
                    {e.target.type} {e.target.id}
                  </td>
                  <td data-label="Cambios" className="audit-changes">
                    {changesText(e).map((line) => (
                      <div key={line}>{line}</div>
                    ))}
                  </td>
                  <td data-label="Origen" className="small">
                    {e.sourceIp} · {e.requestId}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ListFrame>
      )}
    </section>
  );
}
