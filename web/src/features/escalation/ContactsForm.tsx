/**
 * The escalation contacts form (docs/portal.md#escalation-contacts): the list in calling order, "Añadir contacto"
 * (up to `MAX_ESCALATION_CONTACTS`), and "Guardar contactos", which checks the list with the contract's schema
 * first and then replaces it with `PUT /escalation-contacts` at the version it was read. The API's field errors show
 * under their fields; 409 VERSION_CONFLICT (someone saved in between) reloads the current list and says so.
 */
import { useState, type FormEvent } from 'react';
import { MAX_ESCALATION_CONTACTS, type EscalationContacts } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import { t as msg } from '../../shared/lib/messages';
import { apiErrors, blankDraft, draftErrors, draftOf, move, type ContactDraft, type DraftErrors } from './contact-draft';
import { ContactFieldset } from './ContactFieldset';

interface Props {
  initial: EscalationContacts;
  /** Saves the list at `version`; resolves with what the API stored. */
  save: (version: number, contacts: ContactDraft[]) => Promise<EscalationContacts>;
  /** Called after a save, or with 'conflict' when the list changed meanwhile (the caller reloads it). */
  onDone: (outcome: 'saved' | 'conflict') => void;
}

export function ContactsForm({ initial, save, onDone }: Props) {
  const [drafts, setDrafts] = useState<ContactDraft[]>(() => initial.contacts.map(draftOf));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [busy, setBusy] = useState(false);
  const [dirty, setDirty] = useState(false);

  const edit = (next: ContactDraft[]) => {
    setDrafts(next);
    setDirty(true);
    setErrors({});
  };
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const local = draftErrors(drafts, initial.version);
    if (Object.keys(local).length) {
      setErrors({ ...local, form: local.form ?? msg('escalation.page.fixErrors') });
      return;
    }
    setBusy(true);
    try {
      await save(initial.version, drafts);
      onDone('saved');
    } catch (err) {
      if (toApiError(err).code === 'VERSION_CONFLICT') onDone('conflict');
      else setErrors(apiErrors(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form" noValidate onSubmit={(e) => void onSubmit(e)}>
      {drafts.length === 0 ? (
        <p className="empty-state">{msg('escalation.page.empty')}</p>
      ) : (
        <ol className="contact-list">
          {drafts.map((d, i) => (
            <li key={d.key}>
              <ContactFieldset
                draft={d}
                index={i}
                count={drafts.length}
                errors={errors}
                onChange={(patch) => edit(drafts.map((x) => (x.key === d.key ? { ...x, ...patch } : x)))}
                onMove={(to) => edit(move(drafts, i, to))}
                onRemove={() => edit(drafts.filter((x) => x.key !== d.key))}
              />
            </li>
          ))}
        </ol>
      )}
      <div className="form-actions">
        <button type="button" className="btn" disabled={drafts.length >= MAX_ESCALATION_CONTACTS} onClick={() => edit([...drafts, blankDraft()])}>
          {msg('escalation.page.add')}
        </button>
        {/* Nothing changed since the list was read: nothing to save. */}
        <button type="submit" className="btn btn-primary" disabled={busy || !dirty}>
          {busy ? msg('actions.saving') : msg('escalation.page.save')}
        </button>
      </div>
      {drafts.length >= MAX_ESCALATION_CONTACTS && <p className="muted small">{msg('escalation.page.limit', { max: MAX_ESCALATION_CONTACTS })}</p>}
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      {dirty && !errors.form && <p className="muted small">{msg('escalation.page.unsaved')}</p>}
    </form>
  );
}
