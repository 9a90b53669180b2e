/**
 * "Declarar una ventana" / "Editar «…»" (docs/portal.md#maintenance-windows): title, devices chosen by name
 * (`DevicePicker`, a name search on the server) and/or sites, start and end in the reader's time zone (stored
 * UTC). Checked first with the API's rules (maintenance-draft.ts) — nothing is sent while a field is wrong —
 * then saved; the API's refusals (WINDOW_ENDS_BEFORE_START, WINDOW_TOO_LONG, UNKNOWN_DEVICE, field details)
 * show under their fields, 409 VERSION_CONFLICT goes back to the page (`onConflict`), which reloads the list.
 */
import { useState, type FormEvent } from 'react';
import { toApiError } from '../../shared/lib/api';
import type { MaintenanceWindow } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';
import { FormActions } from '../../shared/ui/FormActions';
import { DeviceChip } from './DeviceChip';
import { DevicePicker } from './DevicePicker';
import './maintenance.css';
import { apiWindowErrors, blankWindow, draftOfWindow, windowBodyOf, windowDraftErrors, type WindowDraft, type WindowErrors, type WindowField } from './maintenance-draft';

interface Props {
  /** The window edited, or null to declare a new one. */
  editing: MaintenanceWindow | null;
  /** Saves the body (with `editing`'s version when editing); resolves with the window stored. */
  save: (body: ReturnType<typeof windowBodyOf>) => Promise<MaintenanceWindow>;
  onSaved: (w: MaintenanceWindow) => void;
  onConflict: () => void;
  onCancel: () => void;
}

const zone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function MaintenanceForm({ editing, save, onSaved, onConflict, onCancel }: Props) {
  const [draft, setDraft] = useState<WindowDraft>(() => (editing ? draftOfWindow(editing) : blankWindow()));
  const [picked, setPicked] = useState('');
  const [errors, setErrors] = useState<WindowErrors>({});
  const [busy, setBusy] = useState(false);
  const edit = (patch: Partial<WindowDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors({});
  };
  const describedBy = (f: WindowField) => (errors[f] ? { 'aria-invalid': true, 'aria-describedby': `mw-${f}-error` } : {});
  const fieldError = (f: WindowField) =>
    errors[f] && (
      <p id={`mw-${f}-error`} className="field-error">
        {errors[f]}
      </p>
    );

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const local = windowDraftErrors(draft);
    if (Object.keys(local).length) {
      setErrors(local);
      return;
    }
    setBusy(true);
    try {
      onSaved(await save(windowBodyOf(draft)));
    } catch (err) {
      if (toApiError(err).code === 'VERSION_CONFLICT') onConflict();
      else setErrors(apiWindowErrors(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form card maintenance-form" noValidate aria-labelledby="mw-form-title" onSubmit={(e) => void onSubmit(e)}>
      <h2 id="mw-form-title">{editing ? msg('maintenance.form.editTitle', { title: editing.title }) : msg('maintenance.form.createTitle')}</h2>
      <div className="field">
        <label htmlFor="mw-title">{msg('fields.maintenanceWindow.title')}</label>
        <input id="mw-title" type="text" maxLength={120} autoComplete="off" value={draft.title} onChange={(e) => edit({ title: e.target.value })} {...describedBy('title')} />
        {fieldError('title')}
      </div>
      <fieldset className="field" aria-describedby={errors.scope ? 'mw-scope-error' : undefined}>
        <legend>{msg('maintenance.form.devices')}</legend>
        <div className="filters">
          <DevicePicker id="mw-device" label={msg('maintenance.form.devices')} value={picked} onChange={setPicked} allLabel="—" />
        </div>
        <button
          type="button"
          className="btn"
          disabled={!picked || draft.deviceIds.includes(picked)}
          onClick={() => {
            edit({ deviceIds: [...draft.deviceIds, picked] });
            setPicked('');
          }}
        >
          {msg('maintenance.form.add')}
        </button>
        {draft.deviceIds.length === 0 ? (
          <p className="muted small">{msg('maintenance.form.noDevices')}</p>
        ) : (
          <ul className="device-chips" aria-label={msg('maintenance.form.chosen')}>
            {draft.deviceIds.map((id) => (
              <DeviceChip key={id} id={id} onRemove={() => edit({ deviceIds: draft.deviceIds.filter((x) => x !== id) })} />
            ))}
          </ul>
        )}
        <div className="field">
          <label htmlFor="mw-sites">{msg('maintenance.form.sites')}</label>
          <input id="mw-sites" type="text" autoComplete="off" value={draft.sites} onChange={(e) => edit({ sites: e.target.value })} />
        </div>
        {fieldError('scope')}
      </fieldset>
      <div className="field">
        <label htmlFor="mw-start">{msg('fields.maintenanceWindow.start')}</label>
        <input id="mw-start" type="datetime-local" value={draft.start} onChange={(e) => edit({ start: e.target.value })} {...describedBy('startAt')} />
        {fieldError('startAt')}
      </div>
      <div className="field">
        <label htmlFor="mw-end">{msg('fields.maintenanceWindow.end')}</label>
        <input id="mw-end" type="datetime-local" value={draft.end} onChange={(e) => edit({ end: e.target.value })} {...describedBy('endAt')} />
        {fieldError('endAt')}
      </div>
      <p className="muted small">{msg('maintenance.form.timeZone', { zone: zone() })}</p>
      <FormActions busy={busy} label={editing ? msg('maintenance.form.save') : msg('maintenance.form.create')} busyLabel={msg('actions.saving')} error={errors.form}>
        {editing && (
          <button type="button" className="btn" onClick={onCancel}>
            {msg('actions.cancel')}
          </button>
        )}
      </FormActions>
    </form>
  );
}
