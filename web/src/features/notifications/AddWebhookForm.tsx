/** The form that adds a webhook (name, URL, format, minimum severity, kinds); API field errors under their fields. */
import { useState, type FormEvent } from 'react';
import { WEBHOOK_FORMATS, type ActivityKind, type ActivitySeverity, type WebhookView } from '../../shared/lib/contract';
import { WEBHOOK_FORMAT_LABELS } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';
import '../../shared/ui/screens.css';
import { describedBy, FieldNotes, MinSeveritySelect } from './fields';
import { KindsPicker, kindsValue, tickedKinds } from './KindsPicker';
import { fieldErrorsOf, useWebhookActions, type FieldErrors } from './notification-settings';
import './notification-settings.css';
import { FormActions } from '../../shared/ui/FormActions';

type Format = (typeof WEBHOOK_FORMATS)[number];

/** The form's fields as the API names them (`body.<field>`). */
const ADD_FIELDS = ['name', 'kind', 'url', 'minSeverity', 'kinds'] as const;

export function AddWebhookForm({ onCreated }: { onCreated: (c: { webhook: WebhookView; secret: string | null }) => void }) {
  const actions = useWebhookActions();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Format>('teams');
  const [url, setUrl] = useState('');
  const [minSeverity, setMinSeverity] = useState<ActivitySeverity>('high');
  const [kinds, setKinds] = useState<Set<ActivityKind>>(() => tickedKinds(null));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!name.trim()) local.name = msg('notifications.webhooks.nameRequired');
    if (!url.trim()) local.url = msg('notifications.webhooks.urlRequired');
    if (kinds.size === 0) local.kinds = msg('notifications.kindsPicker.noneChosen');
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const created = await actions.create({ name: name.trim(), kind, url: url.trim(), minSeverity, kinds: kindsValue(kinds) });
      setName('');
      setUrl('');
      onCreated(created);
    } catch (err) {
      setErrors(fieldErrorsOf(err, ADD_FIELDS, (message) => msg('notifications.webhooks.addFailed', { message })));
    } finally {
      setBusy(false);
    }
  };
  const described = (field: string, hint: boolean) => describedBy(`wh-${field}`, hint, errors[field]);

  return (
    <form className="card form" noValidate aria-labelledby="webhook-add-title" onSubmit={(e) => void onSubmit(e)}>
      <h2 id="webhook-add-title">{msg('notifications.webhooks.addTitle')}</h2>
      <div className="field-row">
        <div className="field">
          <label htmlFor="wh-name">{msg('notifications.webhooks.name')}</label>
          <input id="wh-name" maxLength={80} value={name} aria-invalid={errors.name ? true : undefined} aria-describedby={described('name', true)} onChange={(e) => setName(e.target.value)} />
          <FieldNotes id="wh-name" hint={msg('notifications.webhooks.nameHint')} error={errors.name} />
        </div>
        <div className="field">
          <label htmlFor="wh-kind">{msg('notifications.webhooks.format')}</label>
          <select id="wh-kind" value={kind} aria-describedby={described('kind', false)} onChange={(e) => setKind(e.target.value as Format)}>
            {WEBHOOK_FORMATS.map((f) => (
              <option key={f} value={f}>
                {WEBHOOK_FORMAT_LABELS[f]}
              </option>
            ))}
          </select>
          <FieldNotes id="wh-kind" error={errors.kind} />
        </div>
      </div>
      <div className="field">
        <label htmlFor="wh-url">{msg('notifications.webhooks.url')}</label>
        <input id="wh-url" type="url" inputMode="url" autoComplete="off" spellCheck={false} maxLength={2048} value={url} aria-invalid={errors.url ? true : undefined} aria-describedby={described('url', true)} onChange={(e) => setUrl(e.target.value)} />
        <FieldNotes id="wh-url" hint={msg('notifications.webhooks.urlHint')} error={errors.url} />
      </div>
      <MinSeveritySelect id="wh-severity" value={minSeverity} onChange={setMinSeverity} error={errors.minSeverity} />
      <KindsPicker id="wh-kinds" ticked={kinds} onChange={setKinds} error={errors.kinds} />
      <FormActions busy={busy} label={msg('notifications.webhooks.add')} busyLabel={msg('notifications.webhooks.adding')} error={errors.form} />
    </form>
  );
}
