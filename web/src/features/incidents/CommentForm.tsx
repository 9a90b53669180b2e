/**
 * The comment form of the incident detail (docs/portal.md#incident-detail). Staff also get the "Nota interna"
 * toggle: checked, the text is sent as an internal work note (`visibility: 'internal'`, docs/api.md#internal-notes),
 * which only staff ever read; the form, its button and its notice say so while it is checked. Customers never
 * see the toggle (the API refuses their internal notes with 403 anyway).
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { IncidentDetail } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';
import { useIncidentRoleActions } from './api';
import './internal-notes.css';
import { FormActions } from '../../shared/ui/FormActions';

/** Longest comment or note the API accepts (characters). */
const MAX_COMMENT = 2000;

export interface CommentFormProps {
  incident: IncidentDetail;
  /** Staff (the caller is in `admin`): offers the internal-note toggle. */
  staff: boolean;
  /** Runs the write and shows its outcome (the page's notice); resolves true when it succeeded. */
  run: (action: () => Promise<unknown>, okText: string) => Promise<boolean>;
}

export function CommentForm({ incident, staff, run }: CommentFormProps) {
  const actions = useIncidentRoleActions(incident.tenantId);
  const [text, setText] = useState('');
  const [internal, setInternal] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const asNote = staff && internal;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = text.trim();
    if (!body) return setError(msg('incidents.detail.writeAComment'));
    if (body.length > MAX_COMMENT) return setError(msg('incidents.detail.commentTooLong'));
    setError(null);
    setBusy(true);
    const ok = await run(
      () => actions.comment(incident.id, body, asNote ? 'internal' : 'public'),
      asNote ? msg('incidents.notes.noteAdded') : msg('incidents.detail.commentAdded'),
    );
    if (ok) setText('');
    setBusy(false);
  };

  return (
    <form className={`card form${asNote ? ' comment-form-internal' : ''}`} onSubmit={(e) => void onSubmit(e)} noValidate>
      <h2>{asNote ? msg('incidents.notes.addNote') : msg('incidents.detail.addComment')}</h2>
      {staff && (
        <div className="field internal-note-toggle">
          <label>
            <input type="checkbox" checked={internal} onChange={(e) => setInternal(e.target.checked)} aria-describedby="internal-note-hint" />{' '}
            {msg('incidents.notes.internalNote')}
          </label>
          <p id="internal-note-hint" className="muted small">
            {msg('incidents.notes.internalNoteHint')}
          </p>
        </div>
      )}
      <div className="field">
        <label htmlFor="comment-body">{asNote ? msg('incidents.notes.note') : msg('incidents.detail.commentLabel')}</label>
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
      <FormActions busy={busy} label={asNote ? msg('incidents.notes.saveNote') : msg('incidents.detail.submitComment')} busyLabel={msg('actions.sending')} />
    </form>
  );
}
