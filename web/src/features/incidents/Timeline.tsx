/** The incident's timeline: comments (internal notes marked) and changes with their reasons, newest first. */
import type { IncidentDetail } from '../../shared/lib/contract';
import { formatDateTime } from '../../shared/lib/format';
import { InternalNoteLabel } from './InternalNoteLabel';
import { t as msg } from '../../shared/lib/messages';
import { FIELD_LABELS, valueLabel } from './incident-labels';

type TimelineItem =
  | { kind: 'comment'; at: string; key: string; by: string; body: string; internal: boolean }
  | { kind: 'change'; at: string; key: string; by: string; reason?: string; changes: { field: string; from: string | null; to: string | null }[] };

export function Timeline({ incident }: { incident: IncidentDetail }) {
  const items: TimelineItem[] = [
    ...incident.comments.map((c) => ({ kind: 'comment' as const, at: c.createdAt, key: `c-${c.id}`, by: c.author, body: c.body, internal: c.visibility === 'internal' })),
    ...incident.history.map((h) => ({ kind: 'change' as const, at: h.at, key: `h-${h.version}`, by: h.by, reason: h.reason, changes: h.changes })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <div className="card">
      <h2>{msg('incidents.detail.history')}</h2>
      {items.length === 0 ? (
        <p className="empty-state">{msg('common.noRecords')}</p>
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
                  {item.reason && <p className="muted small pre-wrap">{msg('incidents.detail.reasonPrefix')} {item.reason}</p>}
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
