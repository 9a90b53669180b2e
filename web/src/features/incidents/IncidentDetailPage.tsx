/**
 * `/ticket/update/{id}`: one incident — details (category, source, reporter, assignee, SLA due and
 * state), status change (allowed next states only), severity, category and assignee (empty = unassign),
 * comments, and a timeline of comments and change history. Updates send the `version` last read;
 * a 409 (VERSION_CONFLICT / INVALID_TRANSITION) shows why and reloads the incident.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { SEVERITIES } from '../../shared/lib/contract';
import type { IncidentDetail, IncidentStatus, Severity } from '../../shared/lib/contract';
import { formatDateTime, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../../shared/lib/format';
import { toApiError } from '../../shared/lib/api';
import { INCIDENT_SOURCE_LABELS, IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { slaLabel } from './filters';
import { ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import { NEXT_STATUSES, useIncident, useIncidentActions } from './api';

const FIELD_LABELS: Record<string, string> = {
  status: 'Estado',
  severity: 'Severidad',
  description: 'Descripción',
  assignee: 'Asignado a',
  title: 'Título',
  category: 'Categoría',
};

function valueLabel(field: string, v: string | null): string {
  if (v === null || v === '') return '—';
  if (field === 'status') return INCIDENT_STATUS_LABELS[v as IncidentStatus] ?? v;
  if (field === 'severity') return SEVERITY_LABELS[v as Severity] ?? v;
  return v;
}

type Notice = { tone: 'ok' | 'error'; text: string } | null;

export function IncidentDetailPage() {
  const { id } = useParams();
  const { data, error, isLoading, mutate } = useIncident(id);
  const [notice, setNotice] = useState<Notice>(null);

  return (
    <section>
      <p className="breadcrumb">
        <Link to="/incidents/all">← Incidentes</Link>
      </p>
      {error && !data ? (
        <>
          <PageHeader title={`Incidente ${id ?? ''}`} />
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
            <IncidentSummary incident={data} />
            <UpdateForm key={data.version} incident={data} onDone={setNotice} reload={() => void mutate()} />
          </div>
          <CommentForm incidentId={data.id} onDone={setNotice} reload={() => void mutate()} />
          <Timeline incident={data} />
        </>
      )}
    </section>
  );
}

function IncidentSummary({ incident }: { incident: IncidentDetail }) {
  return (
    <div className="card">
      <h2>Detalles</h2>
      <dl className="details">
        <dt>Estado</dt>
        <dd>
          <IncidentStatusBadge status={incident.status} />
        </dd>
        <dt>Severidad</dt>
        <dd>
          <SeverityBadge severity={incident.severity} />
        </dd>
        <dt>Categoría</dt>
        <dd>{incident.category}</dd>
        <dt>Origen</dt>
        <dd>{INCIDENT_SOURCE_LABELS[incident.source] ?? incident.source}</dd>
        <dt>Reportado por</dt>
        <dd>{incident.reporter}</dd>
        <dt>Asignado a</dt>
        <dd>{incident.assignee ?? '—'}</dd>
        <dt>Creado</dt>
        <dd>{formatDateTime(incident.createdAt)}</dd>
        <dt>Actualizado</dt>
        <dd>{formatDateTime(incident.updatedAt)}</dd>
        <dt>Vence SLA</dt>
        <dd>
          {formatDateTime(incident.slaDueAt)} ({slaLabel(incident).startsWith('Vence') ? 'en plazo' : slaLabel(incident).toLowerCase()})
        </dd>
        {incident.resolvedAt && (
          <>
            <dt>Resuelto</dt>
            <dd>{formatDateTime(incident.resolvedAt)}</dd>
          </>
        )}
      </dl>
      <h3>Descripción</h3>
      <p className="pre-wrap">{incident.description}</p>
    </div>
  );
}

function UpdateForm({ incident, onDone, reload }: { incident: IncidentDetail; onDone: (n: Notice) => void; reload: () => void }) {
  const { update } = useIncidentActions();
  const [status, setStatus] = useState<IncidentStatus | ''>('');
  const [severity, setSeverity] = useState<Severity>(incident.severity);
  const [category, setCategory] = useState(incident.category);
  const [assignee, setAssignee] = useState(incident.assignee ?? '');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const next = NEXT_STATUSES[incident.status];
  const categoryChanged = category.trim() !== incident.category;
  const assigneeChanged = assignee.trim() !== (incident.assignee ?? '');
  const changed = status !== '' || severity !== incident.severity || categoryChanged || assigneeChanged;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!changed) return;
    // Contract limits (UpdateIncidentBody): category 1–60 chars, assignee 3–254 chars or empty (= unassign).
    if (categoryChanged && (category.trim().length < 1 || category.trim().length > 60)) return setFieldError('La categoría debe tener entre 1 y 60 caracteres.');
    if (assigneeChanged && assignee.trim() !== '' && (assignee.trim().length < 3 || assignee.trim().length > 254)) return setFieldError('El responsable debe tener entre 3 y 254 caracteres (vacío = sin asignar).');
    setFieldError(null);
    setBusy(true);
    onDone(null);
    try {
      await update(incident.id, {
        version: incident.version,
        ...(status ? { status } : {}),
        ...(severity !== incident.severity ? { severity } : {}),
        ...(categoryChanged ? { category: category.trim() } : {}),
        ...(assigneeChanged ? { assignee: assignee.trim() === '' ? null : assignee.trim() } : {}),
      });
      onDone({ tone: 'ok', text: 'Incidente actualizado.' });
      setStatus('');
      reload();
    } catch (err) {
      const apiErr = toApiError(err);
      if (apiErr.code === 'VERSION_CONFLICT') {
        onDone({ tone: 'error', text: 'El incidente cambió mientras lo editabas. Se han cargado los datos actuales; revisa y vuelve a intentarlo.' });
        setStatus('');
        reload();
      } else if (apiErr.code === 'INVALID_TRANSITION') {
        onDone({ tone: 'error', text: `${apiErr.userMessage} Se han cargado los datos actuales.` });
        setStatus('');
        reload();
      } else {
        onDone({ tone: 'error', text: apiErr.userMessage });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form" onSubmit={(e) => void onSubmit(e)}>
      <h2>Actualizar</h2>
      <div className="field">
        <label htmlFor="update-status">Cambiar estado</label>
        <select id="update-status" value={status} disabled={next.length === 0} onChange={(e) => setStatus(e.target.value as IncidentStatus | '')}>
          <option value="">{next.length === 0 ? 'Sin cambios posibles' : `Mantener (${INCIDENT_STATUS_LABELS[incident.status]})`}</option>
          {next.map((s) => (
            <option key={s} value={s}>
              {INCIDENT_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="update-severity">Severidad</label>
        <select id="update-severity" value={severity} onChange={(e) => setSeverity(e.target.value as Severity)}>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {SEVERITY_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="update-category">Categoría</label>
        <input id="update-category" value={category} maxLength={60} onChange={(e) => setCategory(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="update-assignee">Asignado a</label>
        <input id="update-assignee" type="text" inputMode="email" autoComplete="off" value={assignee} placeholder="Sin asignar" maxLength={254} onChange={(e) => setAssignee(e.target.value)} />
      </div>
      {fieldError && (
        <p className="field-error" role="alert">
          {fieldError}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!changed || busy}>
          {busy ? 'Guardando…' : 'Guardar cambios'}
        </button>
      </div>
    </form>
  );
}

function CommentForm({ incidentId, onDone, reload }: { incidentId: string; onDone: (n: Notice) => void; reload: () => void }) {
  const { comment } = useIncidentActions();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = text.trim();
    if (!body) return setError('Escribe un comentario.');
    if (body.length > 2000) return setError('El comentario no puede superar los 2000 caracteres.');
    setError(null);
    setBusy(true);
    try {
      await comment(incidentId, body);
      setText('');
      onDone({ tone: 'ok', text: 'Comentario añadido.' });
      reload();
    } catch (err) {
      onDone({ tone: 'error', text: toApiError(err).userMessage });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <h2>Agregar comentario</h2>
      <div className="field">
        <label htmlFor="comment-body">Comentario</label>
        <textarea
          id="comment-body"
          rows={3}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'comment-body-error' : undefined}
          onChange={(e) => setText(e.target.value)}
        />
        {error && (
          <p id="comment-body-error" className="field-error">
            {error}
          </p>
        )}
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Enviando…' : 'Comentar'}
        </button>
      </div>
    </form>
  );
}

type TimelineItem =
  | { kind: 'comment'; at: string; key: string; by: string; body: string }
  | { kind: 'change'; at: string; key: string; by: string; changes: { field: string; from: string | null; to: string | null }[] };

function Timeline({ incident }: { incident: IncidentDetail }) {
  const items: TimelineItem[] = [
    ...incident.comments.map((c) => ({ kind: 'comment' as const, at: c.createdAt, key: `c-${c.id}`, by: c.author, body: c.body })),
    ...incident.history.map((h) => ({ kind: 'change' as const, at: h.at, key: `h-${h.version}`, by: h.by, changes: h.changes })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <div className="card">
      <h2>Historial</h2>
      {items.length === 0 ? (
        <p className="empty-state">No hay registros</p>
      ) : (
        <ol className="timeline">
          {items.map((item) => (
            <li key={item.key} className={`timeline-item timeline-${item.kind}`}>
              <p className="timeline-meta">
                <strong>{item.by}</strong> · <time dateTime={item.at}>{formatDateTime(item.at)}</time>
              </p>
              {item.kind === 'comment' ? (
                <p className="pre-wrap">{item.body}</p>
              ) : (
                <ul className="changes">
                  {item.changes.map((c, i) => (
                    <li key={i}>
                      {FIELD_LABELS[c.field] ?? c.field}: {valueLabel(c.field, c.from)} → {valueLabel(c.field, c.to)}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
