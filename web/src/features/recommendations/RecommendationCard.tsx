import { useState } from 'react';
import type { FormEvent } from 'react';
import type { Recommendation, RecommendationStatus } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import { formatDateTime } from '../../shared/lib/format';
import { Badge } from '../../shared/ui/states';
import { ACTION_LABELS, actionsFor, useUpdateRecommendation } from './api';
import { enumLabel, RECOMMENDATION_STATUS_LABELS } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';

/** One recommendation: its text, state and history, and the next steps it allows, each asking for a note. */
export function RecommendationCard({ rec, onChanged }: { rec: Recommendation; onChanged: (n: { ok: boolean; text: string }) => void }) {
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
