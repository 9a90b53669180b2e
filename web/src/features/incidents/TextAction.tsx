/** One customer action that needs a text (a reason or a note) of at least `min` characters. */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { t as msg } from '../../shared/lib/messages';

export function TextAction({ id, label, button, min, busy, onSubmit }: { id: string; label: string; button: string; min: number; busy: boolean; onSubmit: (text: string) => Promise<void> }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const t = text.trim();
    if (t.length < min || t.length > 2000) return setError(msg('incidents.detail.commentLength', { min }));
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
