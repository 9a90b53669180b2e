/**
 * `/ticket/update/{id}?tenant=<t>`: one incident of the tenant named in the address (docs/portal.md#incident-detail)
 * — details (customer, category, source, reporter, assignee, SLA targets, due time and result), the actions
 * of the caller's role (docs/api.md#incident-roles), the attachments (`AttachmentsSection`, docs/api.md#attachments),
 * comments, and a timeline of comments and changes (with the reason staff or the customer gave).
 *  - Staff (`admin`): triage (severity with a reason), provider status, assignee picked from
 *    `listAssignees` (not free text), category.
 *  - Customers: "Solicitar cierre", "Confirmar resolución" (resolved), "Reabrir" (resolved or closed, within
 *    the grace period).
 * Writes send the `version` last read where the API asks for it; a 409 (VERSION_CONFLICT /
 * INVALID_TRANSITION) shows why and reloads the incident. An address without `?tenant=` gets the
 * incident's tenant added once it has loaded, so the header's tenant picker never swaps the incident.
 */
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { IncidentId } from '../../shared/lib/contract';
import { ticketPath } from '../../shared/lib/links';
import { canOperate, useTenant } from '../../shared/lib/tenant';
import { ErrorState, LoadingState, NotFoundState, PageHeader } from '../../shared/ui/states';
import { useIncident } from './api';
import { EscalationContactsPanel } from './EscalationContactsPanel';
import { LinkedAlarms } from './LinkedAlarms';
import { CommentForm } from './CommentForm';
import { t as msg } from '../../shared/lib/messages';
import { runAction, type Notice } from './incident-action';
import { IncidentSummary } from './IncidentSummary';
import { TriageForm } from './TriageForm';
import { StaffUpdateForm } from './StaffUpdateForm';
import { CustomerActions } from './CustomerActions';
import { Timeline } from './Timeline';
import { AttachmentsSection } from './AttachmentsSection';

export function IncidentDetailPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const urlTenant = params.get('tenant');
  const navigate = useNavigate();
  const { me } = useTenant();
  // A malformed id (e.g. INC-0001) names no incident: not asked of the API, shown as not found.
  const wellFormed = IncidentId.safeParse(id).success;
  const { data, error, isLoading, mutate } = useIncident(wellFormed ? id : undefined, urlTenant);
  const [notice, setNotice] = useState<Notice>(null);
  const isStaff = !!me?.isAdmin;

  // An old link without ?tenant=: pin the address to the incident's tenant once known.
  useEffect(() => {
    if (!urlTenant && data) navigate(ticketPath(data.id, data.tenantId), { replace: true });
  }, [urlTenant, data, navigate]);

  const tenantName = me?.tenants.find((t) => t.id === data?.tenantId)?.name ?? data?.tenantId ?? '';
  return (
    <section>
      <p className="breadcrumb">
        <Link to="/incidents/all">{msg('incidents.detail.backToList')}</Link>
        {isStaff && (
          <>
            {' · '}
            <Link to="/soc/queue">{msg('menu.socQueue')}</Link>
          </>
        )}
      </p>
      {!wellFormed || (error?.code === 'NOT_FOUND' && !data) ? (
        <>
          <PageHeader title={msg('incidents.detail.pageTitle', { id: id ?? '' })} />
          <NotFoundState what={msg('incidents.detail.incident')} backTo="/incidents/all" backLabel={msg('incidents.detail.viewAllIncidents')} />
        </>
      ) : error && !data ? (
        <>
          <PageHeader title={msg('incidents.detail.pageTitle', { id: id ?? '' })} />
          <ErrorState error={error} onRetry={() => void mutate()} />
        </>
      ) : isLoading || !data ? (
        <LoadingState />
      ) : (
        <>
          <PageHeader title={`${data.id} · ${data.title}`} />
          {notice && (
            <div className={notice.tone === 'ok' ? 'notice-ok' : 'error-state'} role={notice.tone === 'ok' ? 'status' : 'alert'}>
              <p>{notice.text}</p>
            </div>
          )}
          <div className="detail-grid">
            <IncidentSummary incident={data} tenantName={tenantName} />
            {isStaff ? (
              <div>
                <TriageForm key={`t-${data.version}`} incident={data} onDone={setNotice} reload={() => void mutate()} />
                <StaffUpdateForm key={`u-${data.version}`} incident={data} onDone={setNotice} reload={() => void mutate()} />
                <EscalationContactsPanel tenantId={data.tenantId} severity={data.severity} />
              </div>
            ) : (
              <CustomerActions key={data.version} incident={data} onDone={setNotice} reload={() => void mutate()} />
            )}
          </div>
          <LinkedAlarms incident={data} />
          <AttachmentsSection incidentId={data.id} tenantId={data.tenantId} />
          {canOperate(me) ? <CommentForm incident={data} staff={isStaff} run={(action, okText) => runAction(action, okText, setNotice, () => void mutate())} /> : null}
          <Timeline incident={data} />
        </>
      )}
    </section>
  );
}
