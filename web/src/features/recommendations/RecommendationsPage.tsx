/**
 * `/recommendations` (docs/portal.md#screens): the SOC's recommendations for the tenant, filtered by status and
 * priority (URL `?status=open&priority=high`). Each card offers the contract's next steps — accept,
 * dismiss, mark done, reopen — and each asks for a note (required by the API), then shows who changed
 * it, when, and the note.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { RECOMMENDATION_PRIORITIES, RECOMMENDATION_STATUSES } from '../../shared/lib/contract';
import type { Recommendation, RecommendationStatus } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import { formatDateTime } from '../../shared/lib/format';
import { FilterSelect, LoadMore, useFilterParams } from '../../shared/ui/lists';
import { Badge, EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { ACTION_LABELS, actionsFor, useRecommendations, useUpdateRecommendation } from './api';
import type { RecommendationFilters } from './api';
import { enumLabel, RECOMMENDATION_STATUS_LABELS } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';

/** URL → `GET /recommendations` filters (unknown values dropped). */
export function recommendationQuery(params: URLSearchParams): RecommendationFilters {
  const q: RecommendationFilters = {};
  const s = params.get('status');
  if (s && (RECOMMENDATION_STATUSES as readonly string[]).includes(s)) q.status = s;
  const p = params.get('priority');
  if (p && (RECOMMENDATION_PRIORITIES as readonly string[]).includes(p)) q.priority = p;
  return q;
}

export function RecommendationsPage() {
  const { params, set } = useFilterParams();
  const query = recommendationQuery(params);
  const list = useRecommendations(query);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  return (
    <section>
      <PageHeader title={msg('menu.recommendations')} />
      <form className="card filters" aria-label={msg('recommendations.page.filterRecommendations')} onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="rec-status" label={msg('recommendations.page.status')} value={String(query.status ?? '')} options={RECOMMENDATION_STATUSES.map((s) => [s, RECOMMENDATION_STATUS_LABELS[s]] as const)} onChange={(v) => set('status', v)} />
        <FilterSelect id="rec-priority" label={msg('recommendations.page.priority')} all={msg('recommendations.page.all')} value={String(query.priority ?? '')} options={RECOMMENDATION_PRIORITIES.map((p) => [p, enumLabel('recommendationPriority', p)] as const)} onChange={(v) => set('priority', v)} />
      </form>
      {notice && (
        <div className={notice.ok ? 'notice-ok' : 'error-state'} role={notice.ok ? 'status' : 'alert'}>
          <p>{notice.text}</p>
        </div>
      )}
      {list.error && !list.data ? (
        <ErrorState error={list.error} onRetry={() => void list.mutate()} />
      ) : list.isLoading || !list.data ? (
        <LoadingState />
      ) : list.items.length === 0 && !list.hasMore ? (
        <EmptyState>{Object.keys(query).length ? msg('recommendations.page.noMatches') : msg('recommendations.page.noRecommendations')}</EmptyState>
      ) : (
        <>
          <ul className="rec-list">
            {list.items.map((r) => (
              <li key={r.id}>
                <RecommendationCard rec={r} onChanged={(n) => { setNotice(n); void list.mutate(); }} />
              </li>
            ))}
          </ul>
          <LoadMore list={list} />
        </>
      )}
    </section>
  );
}

function RecommendationCard({ rec, onChanged }: { rec: Recommendation; onChanged: (n: { ok: boolean; text: string }) => void }) {
  const update = useUpdateRecommendation();
  const [target, setTarget] = useState<RecommendationStatus | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const noteId = `rec-note-${rec.id}`;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!target) return;
    const text = note.trim();
    if (!text) return setError(msg('recommendations.page.writeANote'));
    if (text.length > 1000) return setError(msg('recommendations.page.noteTooLong'));
    setError(null);
    setBusy(true);
    try {
      await update(rec.id, target, text);
      onChanged({ ok: true, text: msg('recommendations.page.recommendation', { title: rec.title, status: RECOMMENDATION_STATUS_LABELS[target].toLowerCase() }) });
      setTarget(null);
      setNote('');
    } catch (err) {
      onChanged({ ok: false, text: toApiError(err).userMessage });
    } finally {
      setBusy(false);
    }
  };

  return (
    <article className="card" aria-labelledby={`rec-title-${rec.id}`}>
      <h2 id={`rec-title-${rec.id}`}>{rec.title}</h2>
      <p className="feed-meta">
        <Badge tone={`rec-${rec.status}`}>{RECOMMENDATION_STATUS_LABELS[rec.status]}</Badge>
        <Badge tone={`sev-${rec.priority}`}>{msg('recommendations.page.priority')} {enumLabel('recommendationPriority', rec.priority).toLowerCase()}</Badge>
        <span>{rec.category}</span> · <time dateTime={rec.createdAt}>{formatDateTime(rec.createdAt)}</time>
      </p>
      <p className="pre-wrap">{rec.rationale}</p>
      {rec.statusChangedAt && (
        <p className="muted small">
          {RECOMMENDATION_STATUS_LABELS[rec.status]} {msg('recommendations.page.by')} {rec.statusChangedBy ?? '—'} {msg('recommendations.page.on')} {formatDateTime(rec.statusChangedAt)}
          {rec.statusNote ? `: «${rec.statusNote}»` : ''}
        </p>
      )}
      {target ? (
        <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
          <div className="field">
            <label htmlFor={noteId}>{msg('recommendations.page.noteFor')}{ACTION_LABELS[target]}»</label>
            <textarea id={noteId} rows={2} value={note} onChange={(e) => setNote(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? `${noteId}-error` : undefined} />
            {error && (
              <p id={`${noteId}-error`} className="field-error">
                {error}
              </p>
            )}
          </div>
          <div className="rec-actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? msg('actions.saving') : msg('recommendations.page.confirm', { action: ACTION_LABELS[target] })}
            </button>
            <button type="button" className="btn" onClick={() => { setTarget(null); setError(null); }}>
              {msg('actions.cancel')}
            </button>
          </div>
        </form>
      ) : (
        actionsFor(rec.status).length > 0 && (
          <div className="rec-actions">
            {actionsFor(rec.status).map((s) => (
              <button key={s} type="button" className="btn" onClick={() => setTarget(s)} aria-label={`${ACTION_LABELS[s]}: ${rec.title}`}>
                {ACTION_LABELS[s]}
              </button>
            ))}
          </div>
        )
      )}
    </article>
  );
}
