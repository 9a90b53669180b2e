/**
 * `/ticket/update/{id}?tenant=<t>`: one incident of the tenant named in the address (docs/portal.md#incident-detail)
 * — details (customer, category, source, reporter, assignee, SLA targets, due time and result), the actions
 * of the caller's role (docs/api.md#incident-roles), comments, and a timeline of comments and changes
 * (with the reason staff or the customer gave).
 *  - Staff (`admin`): triage (severity with a reason), provider status, assignee picked from
 *    `listAssignees` (not free text), category.
 *  - Customers: "Solicitar cierre", "Confirmar resolución" (resolved), "Reabrir" (resolved or closed, within
 *    the grace period).
 * Writes send the `version` last read where the API asks for it; a 409 (VERSION_CONFLICT /
 * INVALID_TRANSITION) shows why and reloads the incident. An address without `?tenant=` gets the
 * incident's tenant added once it has loaded, so the header's tenant picker never swaps the incident.
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { IncidentId, SEVERITIES } from '../../shared/lib/contract';
import type { IncidentDetail, IncidentStatus, Severity } from '../../shared/lib/contract';
import { formatDateTime, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../../shared/lib/format';
import { toApiError } from '../../shared/lib/api';
import { ticketPath } from '../../shared/lib/links';
import { useTenant } from '../../shared/lib/tenant';
import { INCIDENT_SOURCE_LABELS, IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { slaLabel } from './filters';
import { ErrorState, LoadingState, NotFoundState, PageHeader } from '../../shared/ui/states';
import { NEXT_STATUSES, REOPEN_GRACE_DAYS, useAssignees, useIncident, useIncidentRoleActions } from './api';
import { EscalationContactsPanel } from './EscalationContactsPanel';
import { ClearLinkedAlarmsOption, LinkedAlarms, openLinkedDeviceAlarms } from './LinkedAlarms';
import { CommentForm } from './CommentForm';
import { InternalNoteLabel } from './InternalNoteLabel';
import { t as msg } from '../../shared/lib/messages';

const FIELD_LABELS: Record<string, string> = {
  get status() { return msg('incidents.detail.status'); },
  get severity() { return msg('incidents.detail.severity'); },
  get description() { return msg('incidents.detail.description'); },
  get assignee() { return msg('incidents.detail.assignedTo'); },
  get title() { return msg('incidents.detail.title'); },
  get category() { return msg('incidents.detail.category'); },
  get closureRequested() { return msg('incidents.detail.closureRequested2'); },
  slaTargets: 'Objetivos SLA',
  slaDueAt: 'Vence SLA',
  slaResult: 'Resultado SLA',
};

/**
 * A history value in the portal's language. The API records SLA targets as `response <n> min, resolution <n> min` and
 * times as ISO-8601 UTC (docs/sla.md); they are shown as "respuesta 1 h · resolución 8 h" and local dates.
 */
export function valueLabel(field: string, v: string | null): string {
  if (v === null || v === '') return '—';
  if (field === 'status') return INCIDENT_STATUS_LABELS[v as IncidentStatus] ?? v;
  if (field === 'severity') return SEVERITY_LABELS[v as Severity] ?? v;
  if (field === 'closureRequested') return v === 'true' ? msg('incidents.detail.yes') : msg('incidents.detail.no');
  if (field === 'slaResult') return v === 'met' ? msg('incidents.detail.met') : v === 'breached' ? msg('incidents.detail.breached') : v;
  if (field === 'slaDueAt' && !Number.isNaN(Date.parse(v))) return formatDateTime(v);
  const targets = field === 'slaTargets' ? /^response (\d+) min, resolution (\d+) min$/.exec(v) : null;
  if (targets) return msg('incidents.detail.responseResolution', { v0: minutesLabel(Number(targets[1])), v1: minutesLabel(Number(targets[2])) });
  return v;
}

/** Minutes as "45 min", "4 h", "1 d 2 h". */
function minutesLabel(m: number): string {
  if (m < 60) return `${m} min`;
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  const rest = m % 60;
  return [d ? `${d} d` : '', h ? `${h} h` : '', rest ? `${rest} min` : ''].filter(Boolean).join(' ');
}

type Notice = { tone: 'ok' | 'error'; text: string } | null;

/** Runs one write and turns its outcome into a notice; a 409 reloads the incident (the data changed). */
async function runAction(action: () => Promise<unknown>, okText: string, onDone: (n: Notice) => void, reload: () => void): Promise<boolean> {
  onDone(null);
  try {
    await action();
    onDone({ tone: 'ok', text: okText });
    reload();
    return true;
  } catch (err) {
    const apiErr = toApiError(err);
    if (apiErr.code === 'VERSION_CONFLICT') {
      onDone({ tone: 'error', text: msg('incidents.detail.theIncidentChangedWhile') });
      reload();
    } else if (apiErr.code === 'INVALID_TRANSITION') {
      onDone({ tone: 'error', text: msg('incidents.detail.theCurrentDataHas', { userMessage: apiErr.userMessage }) });
      reload();
    } else {
      onDone({ tone: 'error', text: apiErr.userMessage });
    }
    return false;
  }
}

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
        <Link to="/incidents/all">{msg('incidents.detail.incidents')}</Link>
        {isStaff && (
          <>
            {' · '}
            <Link to="/soc/queue">{msg('incidents.detail.socQueue')}</Link>
          </>
        )}
      </p>
      {!wellFormed || (error?.code === 'NOT_FOUND' && !data) ? (
        <>
          <PageHeader title={msg('incidents.detail.incident2', { v0: id ?? '' })} />
          <NotFoundState what={msg('incidents.detail.incident')} backTo="/incidents/all" backLabel={msg('incidents.detail.viewAllIncidents')} />
        </>
      ) : error && !data ? (
        <>
          <PageHeader title={msg('incidents.detail.incident2', { v0: id ?? '' })} />
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
          <CommentForm incident={data} staff={isStaff} run={(action, okText) => runAction(action, okText, setNotice, () => void mutate())} />
          <Timeline incident={data} />
        </>
      )}
    </section>
  );
}

function IncidentSummary({ incident, tenantName }: { incident: IncidentDetail; tenantName: string }) {
  return (
    <div className="card">
      <h2>{msg('incidents.detail.details')}</h2>
      <dl className="details">
        <dt>{msg('incidents.detail.customer')}</dt>
        <dd>{tenantName}</dd>
        <dt>{msg('incidents.detail.status')}</dt>
        <dd>
          <IncidentStatusBadge status={incident.status} />
          {incident.closureRequested && <span className="muted small"> {msg('incidents.detail.closureRequested')}</span>}
        </dd>
        <dt>{msg('incidents.detail.severity')}</dt>
        <dd>
          <SeverityBadge severity={incident.severity} />
          {!incident.triagedAt && <span className="muted small"> {msg('incidents.detail.notTriaged')}</span>}
        </dd>
        <dt>{msg('incidents.detail.category')}</dt>
        <dd>{incident.category}</dd>
        <dt>{msg('incidents.detail.source')}</dt>
        <dd>{INCIDENT_SOURCE_LABELS[incident.source] ?? incident.source}</dd>
        <dt>{msg('incidents.detail.reportedBy')}</dt>
        <dd>{incident.reporter}</dd>
        <dt>{msg('incidents.detail.assignedTo')}</dt>
        <dd>{incident.assignee ?? '—'}</dd>
        <dt>{msg('incidents.detail.created')}</dt>
        <dd>{formatDateTime(incident.createdAt)}</dd>
        <dt>{msg('incidents.detail.updated')}</dt>
        <dd>{formatDateTime(incident.updatedAt)}</dd>
        {incident.slaTargets && (
          <>
            <dt>{msg('incidents.detail.slaTargets')}</dt>
            <dd>
              {msg('incidents.detail.response')} {minutesLabel(incident.slaTargets.responseMinutes)} {msg('incidents.detail.resolution')} {minutesLabel(incident.slaTargets.resolutionMinutes)}
            </dd>
          </>
        )}
        {incident.firstAcknowledgedAt && (
          <>
            <dt>{msg('incidents.detail.acknowledged')}</dt>
            <dd>{formatDateTime(incident.firstAcknowledgedAt)}</dd>
          </>
        )}
        <dt>{msg('incidents.detail.slaDue')}</dt>
        <dd>
          {formatDateTime(incident.slaDueAt)} ({slaLabel(incident).startsWith(msg('incidents.detail.due')) ? msg('incidents.detail.onTime') : slaLabel(incident).toLowerCase()})
        </dd>
        {incident.resolvedAt && (
          <>
            <dt>{msg('incidents.detail.resolved')}</dt>
            <dd>{formatDateTime(incident.resolvedAt)}</dd>
          </>
        )}
        {incident.closedAt && (
          <>
            <dt>{msg('incidents.detail.closed')}</dt>
            <dd>{formatDateTime(incident.closedAt)}</dd>
          </>
        )}
        {incident.slaResult && (
          <>
            <dt>{msg('incidents.detail.slaResult')}</dt>
            <dd>{incident.slaResult === 'met' ? msg('incidents.detail.met') : msg('incidents.detail.breached')}</dd>
          </>
        )}
      </dl>
      <h3>{msg('incidents.detail.description')}</h3>
      <p className="pre-wrap">{incident.description}</p>
    </div>
  );
}

interface FormProps {
  incident: IncidentDetail;
  onDone: (n: Notice) => void;
  reload: () => void;
}

/** Staff triage: the severity with a reason (3–500 characters); fixes the SLA targets (docs/sla.md). */
function TriageForm({ incident, onDone, reload }: FormProps) {
  const actions = useIncidentRoleActions(incident.tenantId);
  const [severity, setSeverity] = useState<Severity>(incident.severity);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (incident.status === 'closed') return null;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const r = reason.trim();
    if (r.length < 3 || r.length > 500) return setError(msg('incidents.detail.giveTheReason3'));
    setError(null);
    setBusy(true);
    await runAction(() => actions.triage(incident.id, { version: incident.version, severity, reason: r }), 'Incidente clasificado.', onDone, reload);
    setBusy(false);
  };
  return (
    <form className="card form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <h2>{msg('incidents.detail.triage')}</h2>
      <div className="field">
        <label htmlFor="triage-severity">{msg('incidents.detail.severity')}</label>
        <select id="triage-severity" value={severity} onChange={(e) => setSeverity(e.target.value as Severity)}>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {SEVERITY_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="triage-reason">{msg('incidents.detail.reason')}</label>
        <textarea
          id="triage-reason"
          rows={2}
          value={reason}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'triage-reason-error' : undefined}
          onChange={(e) => setReason(e.target.value)}
        />
        {error && (
          <p id="triage-reason-error" className="field-error">
            {error}
          </p>
        )}
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? msg('incidents.detail.saving') : incident.triagedAt ? msg('incidents.detail.reTriage') : msg('incidents.detail.triage')}
        </button>
      </div>
    </form>
  );
}

/**
 * Staff: provider status (allowed next states), assignee from the tenant's users and the staff, category. A
 * provider status on an untriaged incident asks for the triage inline (severity and reason), sent in the same
 * change (docs/sla.md#triage-first).
 */
function StaffUpdateForm({ incident, onDone, reload }: FormProps) {
  const actions = useIncidentRoleActions(incident.tenantId);
  const assignees = useAssignees(incident.tenantId);
  const [status, setStatus] = useState<IncidentStatus | ''>('');
  const [triageSeverity, setTriageSeverity] = useState<Severity>(incident.severity);
  const [triageReason, setTriageReason] = useState('');
  const needsTriage = status !== '' && status !== 'new' && !incident.triagedAt;
  const [category, setCategory] = useState(incident.category);
  const [assignee, setAssignee] = useState(incident.assignee ?? '');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Resolving with linked device alarms still open: clear them too unless unchecked (docs/api.md#linked-alarms).
  const [clearAlarms, setClearAlarms] = useState(true);
  const openAlarms = openLinkedDeviceAlarms(incident);
  const next = NEXT_STATUSES[incident.status];
  const categoryChanged = category.trim() !== incident.category;
  const assigneeChanged = assignee !== (incident.assignee ?? '');
  const changed = status !== '' || categoryChanged || assigneeChanged;
  const options = assignees.data?.items ?? [];
  const known = incident.assignee === null || options.some((a) => a.email === incident.assignee);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!changed) return;
    if (categoryChanged && (category.trim().length < 1 || category.trim().length > 60)) return setFieldError(msg('incidents.detail.theCategoryMustHave'));
    const reason = triageReason.trim();
    if (needsTriage && (reason.length < 3 || reason.length > 500)) return setFieldError(msg('incidents.detail.giveTheReason3'));
    setFieldError(null);
    setBusy(true);
    const ok = await runAction(
      () =>
        actions.update(incident.id, {
          version: incident.version,
          ...(status ? { status } : {}),
          ...(needsTriage ? { triage: { severity: triageSeverity, reason } } : {}),
          ...(categoryChanged ? { category: category.trim() } : {}),
          ...(assigneeChanged ? { assignee: assignee === '' ? null : assignee } : {}),
          ...(status === 'resolved' && openAlarms > 0 ? { clearLinkedAlarms: clearAlarms } : {}),
        }),
      'Incidente actualizado.',
      onDone,
      reload,
    );
    if (!ok) setStatus('');
    setBusy(false);
  };

  return (
    <form className="card form" onSubmit={(e) => void onSubmit(e)}>
      <h2>{msg('incidents.detail.manage')}</h2>
      <div className="field">
        <label htmlFor="update-status">{msg('incidents.detail.changeStatus')}</label>
        <select id="update-status" value={status} disabled={next.length === 0} onChange={(e) => setStatus(e.target.value as IncidentStatus | '')}>
          <option value="">{next.length === 0 ? msg('incidents.detail.noChangesPossible') : msg('incidents.detail.keep', { v0: INCIDENT_STATUS_LABELS[incident.status] })}</option>
          {next.map((s) => (
            <option key={s} value={s}>
              {INCIDENT_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      {status === 'resolved' && <ClearLinkedAlarmsOption open={openAlarms} checked={clearAlarms} onChange={setClearAlarms} />}
      {needsTriage && (
        <fieldset className="field triage-inline">
          <legend>{msg('incidents.detail.triage')}</legend>
          <p className="notice-info" role="status">
            {msg('incidents.detail.triageRequired', { v0: INCIDENT_STATUS_LABELS[status as IncidentStatus] })}
          </p>
          <div className="field">
            <label htmlFor="update-triage-severity">{msg('incidents.detail.triageSeverity')}</label>
            <select id="update-triage-severity" value={triageSeverity} onChange={(e) => setTriageSeverity(e.target.value as Severity)}>
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {SEVERITY_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="update-triage-reason">{msg('incidents.detail.triageReason')}</label>
            <textarea id="update-triage-reason" rows={2} maxLength={500} value={triageReason} onChange={(e) => setTriageReason(e.target.value)} />
          </div>
        </fieldset>
      )}
      <div className="field">
        <label htmlFor="update-assignee">{msg('incidents.detail.assignedTo')}</label>
        <select id="update-assignee" value={assignee} disabled={!assignees.data} onChange={(e) => setAssignee(e.target.value)}>
          <option value="">{msg('incidents.detail.unassigned')}</option>
          {!known && incident.assignee && <option value={incident.assignee}>{incident.assignee}</option>}
          {options.map((a) => (
            <option key={a.username} value={a.email}>
              {a.email}
              {a.staff ? ' (SOC)' : ''}
            </option>
          ))}
        </select>
        {assignees.error && (
          <p className="field-error" role="alert">
            {msg('incidents.detail.couldNotLoadThe')} {assignees.error.userMessage}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="update-category">{msg('incidents.detail.category')}</label>
        <input id="update-category" value={category} maxLength={60} onChange={(e) => setCategory(e.target.value)} />
      </div>
      {fieldError && (
        <p className="field-error" role="alert">
          {fieldError}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!changed || busy}>
          {busy ? msg('incidents.detail.saving') : msg('incidents.detail.saveChanges')}
        </button>
      </div>
    </form>
  );
}

/** Whether a customer may still reopen: resolved or closed within `REOPEN_GRACE_DAYS` (the API decides). */
function canReopen(incident: IncidentDetail, now: number): boolean {
  if (incident.status !== 'resolved' && incident.status !== 'closed') return false;
  const since = incident.closedAt ?? incident.resolvedAt;
  return !since || now - Date.parse(since) <= REOPEN_GRACE_DAYS * 86_400_000;
}

/** A customer's actions for the incident's state: request closure, confirm the resolution, reopen. */
function CustomerActions({ incident, onDone, reload }: FormProps) {
  const actions = useIncidentRoleActions(incident.tenantId);
  const [now] = useState(() => Date.now());
  const [busy, setBusy] = useState(false);
  const open = incident.status !== 'resolved' && incident.status !== 'closed';
  const reopenable = canReopen(incident, now);
  const run = async (action: () => Promise<unknown>, ok: string) => {
    setBusy(true);
    await runAction(action, ok, onDone, reload);
    setBusy(false);
  };
  return (
    <div className="card">
      <h2>{msg('incidents.detail.actions')}</h2>
      {open && incident.closureRequested && <p className="muted">{msg('incidents.detail.youRequestedClosureThe')}</p>}
      {open && !incident.closureRequested && (
        <TextAction
          id="closure-note"
          label={msg('incidents.detail.noteForTheSoc')}
          button={msg('incidents.detail.requestClosure')}
          min={1}
          busy={busy}
          onSubmit={(note) => run(() => actions.requestClosure(incident.id, note), msg('incidents.detail.closureRequestedDone'))}
        />
      )}
      {incident.status === 'resolved' && incident.autoCloseAt && (
        <p className="muted small">{msg('incidents.detail.autoCloseNotice', { v0: formatDateTime(incident.autoCloseAt) })}</p>
      )}
      {incident.status === 'resolved' && (
        <div className="form-actions">
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void run(() => actions.confirmResolution(incident.id), msg('incidents.detail.resolutionConfirmedTheIncident'))}>
            {msg('incidents.detail.confirmResolution')}
          </button>
        </div>
      )}
      {reopenable && (
        <TextAction
          id="reopen-reason"
          label={msg('incidents.detail.reasonToReopenUp', { REOPEN_GRACE_DAYS })}
          button={msg('incidents.detail.reopen')}
          min={3}
          busy={busy}
          onSubmit={(reason) => run(() => actions.reopen(incident.id, reason), msg('incidents.detail.reopenedDone'))}
        />
      )}
      {incident.status === 'closed' && !reopenable && <p className="muted">{msg('incidents.detail.theIncidentIsClosed')}</p>}
    </div>
  );
}

/** A labelled text area with one submit button; `min`–2000 characters (the API's limits). */
function TextAction({ id, label, button, min, busy, onSubmit }: { id: string; label: string; button: string; min: number; busy: boolean; onSubmit: (text: string) => Promise<void> }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const t = text.trim();
    if (t.length < min || t.length > 2000) return setError(msg('incidents.detail.writeBetweenAnd2000', { min }));
    setError(null);
    await onSubmit(t);
    setText('');
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e)} noValidate>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <textarea id={id} rows={2} value={text} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} onChange={(e) => setText(e.target.value)} />
        {error && (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        )}
      </div>
      <div className="form-actions">
        <button type="submit" className="btn" disabled={busy}>
          {button}
        </button>
      </div>
    </form>
  );
}

type TimelineItem =
  | { kind: 'comment'; at: string; key: string; by: string; body: string; internal: boolean }
  | { kind: 'change'; at: string; key: string; by: string; reason?: string; changes: { field: string; from: string | null; to: string | null }[] };

function Timeline({ incident }: { incident: IncidentDetail }) {
  const items: TimelineItem[] = [
    ...incident.comments.map((c) => ({ kind: 'comment' as const, at: c.createdAt, key: `c-${c.id}`, by: c.author, body: c.body, internal: c.visibility === 'internal' })),
    ...incident.history.map((h) => ({ kind: 'change' as const, at: h.at, key: `h-${h.version}`, by: h.by, reason: h.reason, changes: h.changes })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <div className="card">
      <h2>{msg('incidents.detail.history')}</h2>
      {items.length === 0 ? (
        <p className="empty-state">{msg('incidents.detail.noRecords')}</p>
      ) : (
        <ol className="timeline">
          {items.map((item) => (
            <li key={item.key} className={`timeline-item timeline-${item.kind}${item.kind === 'comment' && item.internal ? ' timeline-internal' : ''}`}>
              <p className="timeline-meta">
                <strong>{item.by}</strong> · <time dateTime={item.at}>{formatDateTime(item.at)}</time>
                {item.kind === 'comment' && item.internal && <InternalNoteLabel />}
              </p>
              {item.kind === 'comment' ? (
                <p className="pre-wrap">{item.body}</p>
              ) : (
                <>
                  <ul className="changes">
                    {item.changes.map((c, i) => (
                      <li key={i}>
                        {FIELD_LABELS[c.field] ?? c.field}: {valueLabel(c.field, c.from)} → {valueLabel(c.field, c.to)}
                      </li>
                    ))}
                  </ul>
                  {item.reason && <p className="muted small pre-wrap">{msg('incidents.detail.reason2')} {item.reason}</p>}
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
