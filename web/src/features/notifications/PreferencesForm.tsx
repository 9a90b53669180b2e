import { useState, type FormEvent } from 'react';
import { type ActivityKind, type ActivitySeverity, type NotificationPreferences } from '../../shared/lib/contract';
import { messagesLanguage, t as msg, type MessagesLanguage } from '../../shared/lib/messages';
import { CheckField, FieldNotes, MinSeveritySelect } from './fields';
import { KindsPicker, kindsValue, tickedKinds } from './KindsPicker';
import { fieldErrorsOf, useSavePreferences, type FieldErrors } from './notification-settings';
import { FormActions } from '../../shared/ui/FormActions';

/** The preferences' fields, in the form's order (the keys of its errors). */
const FIELDS = ['email', 'minSeverity', 'kinds', 'digest', 'monthlyReport', 'language'] as const;

/** The tenant's notification preferences form (e-mail, minimum severity, kinds, digest, monthly report, language), starting from `initial`. */
export function PreferencesForm({ initial, tenantName }: { initial: NotificationPreferences; tenantName: string }) {
  const save = useSavePreferences();
  const [email, setEmail] = useState(initial.email);
  const [minSeverity, setMinSeverity] = useState<ActivitySeverity>(initial.minSeverity);
  const [kinds, setKinds] = useState<Set<ActivityKind>>(() => tickedKinds(initial.kinds));
  const [digest, setDigest] = useState(initial.digest);
  // "Informe mensual por correo": off unless saved on (docs/notifications.md#monthly-report-e-mail).
  const [monthlyReport, setMonthlyReport] = useState(initial.monthlyReport === true);
  // Never saved: the portal's current language, so an English reader does not get Spanish e-mails by default.
  const [language, setLanguage] = useState<MessagesLanguage>(initial.language ?? messagesLanguage());
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    if (kinds.size === 0) {
      setErrors({ kinds: msg('notifications.kindsPicker.noneChosen') });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await save({ email, minSeverity, kinds: kindsValue(kinds), digest, monthlyReport, language });
      setSaved(true);
    } catch (err) {
      setErrors(fieldErrorsOf(err, FIELDS, (message) => msg('notifications.preferences.saveFailed', { message })));
    } finally {
      setBusy(false);
    }
  };
  const change = <T,>(set: (v: T) => void) => (v: T) => {
    setSaved(false);
    set(v);
  };

  return (
    <form className="card form" noValidate onSubmit={(e) => void onSubmit(e)}>
      <p>{msg('notifications.preferences.intro', { tenant: tenantName })}</p>
      <CheckField id="prefs-email" checked={email} onChange={change(setEmail)} label={msg('notifications.preferences.email')} hint={msg('notifications.preferences.emailHint')} error={errors.email} />
      <MinSeveritySelect id="prefs-severity" value={minSeverity} onChange={change(setMinSeverity)} hint={msg('notifications.preferences.minSeverityHint')} error={errors.minSeverity} />
      <KindsPicker id="prefs-kinds" ticked={kinds} onChange={change(setKinds)} error={errors.kinds} />
      <CheckField id="prefs-digest" checked={digest} onChange={change(setDigest)} label={msg('notifications.preferences.digest')} hint={msg('notifications.preferences.digestHint')} error={errors.digest} />
      <CheckField id="prefs-monthly" checked={monthlyReport} onChange={change(setMonthlyReport)} label={msg('notifications.preferences.monthlyReport')} hint={msg('notifications.preferences.monthlyReportHint')} error={errors.monthlyReport} />
      <div className="field">
        <label htmlFor="prefs-language">{msg('notifications.preferences.language')}</label>
        <select id="prefs-language" value={language} aria-describedby="prefs-language-hint" onChange={(e) => change(setLanguage)(e.target.value as MessagesLanguage)}>
          {/* Each language by its own name, as language pickers do. */}
          <option value="es" lang="es">
            {msg('settings.page.espanol')}
          </option>
          <option value="en" lang="en">
            {msg('settings.page.english')}
          </option>
        </select>
        <FieldNotes id="prefs-language" hint={msg('notifications.preferences.languageHint')} error={errors.language} />
      </div>
      <FormActions busy={busy} label={msg('notifications.preferences.save')} busyLabel={msg('actions.saving')} error={errors.form} />
      <p role="status" className="save-status">
        {saved ? msg('notifications.preferences.saved') : ''}
      </p>
    </form>
  );
}
