/**
 * One escalation contact in the form (docs/portal.md#escalation-contacts): name, role, phone (E.164), e-mail,
 * the severities it is called for, its hours and notes, with "Subir" / "Bajar" (calling order) and "Quitar".
 * Errors come keyed `<index>.<field>` (contact-draft.ts) and describe their fields.
 */
import { SEVERITIES, type Severity } from '../../shared/lib/contract';
import { SEVERITY_LABELS } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';
import type { ContactDraft, DraftErrors } from './contact-draft';
import { HoursFields } from './HoursFields';

interface Props {
  draft: ContactDraft;
  index: number;
  count: number;
  errors: DraftErrors;
  onChange: (patch: Partial<ContactDraft>) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}

type TextField = 'name' | 'role' | 'phone' | 'email';

export function ContactFieldset({ draft, index, count, errors, onChange, onMove, onRemove }: Props) {
  const id = `contact-${draft.key}`;
  const name = draft.name.trim() || msg('escalation.contact.unnamed', { n: index + 1 });
  const err = (f: string) => errors[`${index}.${f}`];
  const text = (field: TextField, label: string, type: string, hint?: string, autoComplete?: string) => {
    const e = err(field);
    const described = [hint ? `${id}-${field}-hint` : '', e ? `${id}-${field}-error` : ''].filter(Boolean).join(' ') || undefined;
    return (
      <div className="field">
        <label htmlFor={`${id}-${field}`}>{label}</label>
        <input
          id={`${id}-${field}`}
          type={type}
          value={draft[field]}
          autoComplete={autoComplete}
          required={field !== 'role'}
          aria-invalid={e ? true : undefined}
          aria-describedby={described}
          onChange={(ev) => onChange({ [field]: ev.target.value })}
        />
        {hint && (
          <p id={`${id}-${field}-hint`} className="field-hint muted small">
            {hint}
          </p>
        )}
        {e && (
          <p id={`${id}-${field}-error`} className="field-error">
            {e}
          </p>
        )}
      </div>
    );
  };
  const toggleSeverity = (s: Severity, on: boolean) => onChange({ severities: SEVERITIES.filter((x) => (x === s ? on : draft.severities.includes(x))) });
  return (
    <fieldset className="contact">
      <legend>
        {msg('escalation.contact.legend', { n: index + 1 })}
        {draft.name.trim() ? ` · ${draft.name.trim()}` : ''}
      </legend>
      <div className="contact-tools">
        <button type="button" className="btn btn-small" disabled={index === 0} onClick={() => onMove(index - 1)}>
          <span aria-hidden="true">↑</span> <span className="visually-hidden">{msg('escalation.contact.moveUp', { name })}</span>
        </button>
        <button type="button" className="btn btn-small" disabled={index === count - 1} onClick={() => onMove(index + 1)}>
          <span aria-hidden="true">↓</span> <span className="visually-hidden">{msg('escalation.contact.moveDown', { name })}</span>
        </button>
        <button type="button" className="btn btn-small" onClick={onRemove}>
          {msg('escalation.contact.remove', { name })}
        </button>
      </div>
      <div className="field-row">
        {text('name', msg('escalation.contact.name'), 'text', undefined, 'name')}
        {text('role', msg('escalation.contact.role'), 'text', undefined, 'organization-title')}
      </div>
      <div className="field-row">
        {text('phone', msg('escalation.contact.phone'), 'tel', msg('escalation.contact.phoneHint'), 'tel')}
        {text('email', msg('escalation.contact.email'), 'email', undefined, 'email')}
      </div>
      <fieldset className="choice-row" aria-describedby={err('severities') ? `${id}-sev-error` : undefined}>
        <legend>{msg('escalation.contact.severities')}</legend>
        {SEVERITIES.map((s) => (
          <label key={s} className="choice">
            <input type="checkbox" checked={draft.severities.includes(s)} onChange={(e) => toggleSeverity(s, e.target.checked)} /> {SEVERITY_LABELS[s]}
          </label>
        ))}
      </fieldset>
      {err('severities') && (
        <p id={`${id}-sev-error`} className="field-error">
          {err('severities')}
        </p>
      )}
      <HoursFields id={id} draft={draft} errors={errors} prefix={String(index)} onChange={onChange} />
      <div className="field">
        <label htmlFor={`${id}-notes`}>{msg('escalation.contact.notes')}</label>
        <textarea id={`${id}-notes`} rows={2} maxLength={500} value={draft.notes} onChange={(e) => onChange({ notes: e.target.value })} />
      </div>
    </fieldset>
  );
}
