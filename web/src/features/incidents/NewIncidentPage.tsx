/**
 * `/incidents/new`: form to open an incident. Validated on submit and, after a field was left, on
 * every change (messages under each field); on success goes to the new incident's page. Staff
 * name the customer the incident is filed for (a required "Cliente" select; docs/portal.md#incident-detail).
 * Opened from an alarm ("Abrir incidente", docs/portal.md#linked-alarms) the address names the alarm: the form
 * starts with its title, severity (the same scale) and a description naming the device or the affected user and
 * the alarm's time, and the incident is created linked to it (`alarms`).
 */
import { useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { alarmPrefillOf, utcMinute, type AlarmForIncident } from '../../shared/lib/alarm-incident';
import { SEVERITIES } from '../../shared/lib/contract';
import { SEVERITY_LABELS } from '../../shared/lib/format';
import { toApiError } from '../../shared/lib/api';
import type { ApiError } from '../../shared/lib/api';
import { PageHeader } from '../../shared/ui/states';
import { useIncidentActions } from './api';
import { ticketPath } from '../../shared/lib/links';
import { useTenant } from '../../shared/lib/tenant';
import { validateIncidentForm } from './validation';
import type { IncidentFormErrors, IncidentFormField, IncidentFormValues } from './validation';
import { t as msg } from '../../shared/lib/messages';

const EMPTY: IncidentFormValues = { title: '', description: '', severity: '', category: '' };
const ORDER: IncidentFormField[] = ['title', 'description', 'severity', 'category'];

/** The form's first values for an incident opened from alarm `a`. */
export function valuesFromAlarm(a: Omit<AlarmForIncident, 'severity'> & { severity: IncidentFormValues['severity'] }): IncidentFormValues {
  const texts = { title: a.title, name: a.name ?? msg('incidents.links.noUser'), severity: a.severity ? SEVERITY_LABELS[a.severity] : '—', at: utcMinute(a.at) };
  return {
    title: a.title.slice(0, 120),
    description: a.kind === 'device' ? msg('incidents.links.deviceDescription', texts) : msg('incidents.links.office365Description', texts),
    severity: a.severity,
    category: '',
  };
}

export function NewIncidentPage() {
  const navigate = useNavigate();
  const { create } = useIncidentActions();
  const [searchParams] = useSearchParams();
  // The alarm named by the address when the form opened (a later change of the address does not re-link).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const alarm = useMemo(() => alarmPrefillOf(searchParams), []);
  const [values, setValues] = useState<IncidentFormValues>(() => (alarm ? valuesFromAlarm(alarm) : EMPTY));
  const [errors, setErrors] = useState<IncidentFormErrors>({});
  const [touched, setTouched] = useState<Partial<Record<IncidentFormField, boolean>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<ApiError | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const { me } = useTenant();
  const isStaff = !!me?.isAdmin;
  const [customer, setCustomer] = useState(alarm?.tenantId ?? '');
  const [customerError, setCustomerError] = useState<string | null>(null);

  const update = (field: IncidentFormField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (touched[field]) {
      const r = validateIncidentForm(next);
      setErrors(r.ok ? {} : r.errors);
    }
  };
  const blur = (field: IncidentFormField) => {
    setTouched((t) => ({ ...t, [field]: true }));
    const r = validateIncidentForm(values);
    setErrors((prev) => ({ ...prev, [field]: r.ok ? undefined : r.errors[field] }));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setServerError(null);
    setTouched({ title: true, description: true, severity: true, category: true });
    const r = validateIncidentForm(values);
    const noCustomer = isStaff && !customer;
    setCustomerError(noCustomer ? msg('incidents.new.customerRequired') : null);
    if (noCustomer && r.ok) return void formRef.current?.querySelector<HTMLElement>('#incident-customer')?.focus();
    if (!r.ok) {
      setErrors(r.errors);
      const first = ORDER.find((f) => r.errors[f]);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      const alarms = alarm ? [{ kind: alarm.kind, id: alarm.id, ...(alarm.deviceId ? { deviceId: alarm.deviceId } : {}) }] : undefined;
      const incident = await create({ ...r.body, ...(alarms ? { alarms } : {}) }, isStaff ? customer : alarm?.tenantId);
      navigate(ticketPath(incident.id, incident.tenantId));
    } catch (err) {
      setServerError(toApiError(err));
      setSubmitting(false);
    }
  };

  const fieldProps = (field: IncidentFormField) => ({
    id: `incident-${field}`,
    name: field,
    value: values[field],
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `incident-${field}-error` : undefined,
    onBlur: () => blur(field),
  });
  const fieldError = (field: IncidentFormField) =>
    errors[field] ? (
      <p id={`incident-${field}-error`} className="field-error">
        {errors[field]}
      </p>
    ) : null;

  return (
    <section>
      <PageHeader title={msg('incidents.new.addIncident')} />
      <form ref={formRef} className="card form" noValidate onSubmit={(e) => void onSubmit(e)}>
        {alarm && (
          <p className="notice-info" role="status">
            {msg('incidents.links.fromAlarm', { title: alarm.title, name: alarm.name ?? msg('incidents.links.noUser') })}
          </p>
        )}
        {serverError && (
          <div className="error-state" role="alert">
            <p>{serverError.userMessage}</p>
            {serverError.requestId && <p className="muted small">{msg('incidents.new.reference')} {serverError.requestId}</p>}
          </div>
        )}
        {isStaff && (
          <div className="field">
            <label htmlFor="incident-customer">{msg('fields.common.customer')}</label>
            <select
              id="incident-customer"
              value={customer}
              required
              aria-invalid={customerError ? true : undefined}
              aria-describedby={customerError ? 'incident-customer-error' : undefined}
              onChange={(e) => {
                setCustomer(e.target.value);
                if (e.target.value) setCustomerError(null);
              }}
            >
              <option value="">{msg('incidents.new.customerPlaceholder')}</option>
              {(me?.tenants ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            {customerError && (
              <p id="incident-customer-error" className="field-error">
                {customerError}
              </p>
            )}
          </div>
        )}
        <div className="field">
          <label htmlFor="incident-title">{msg('fields.incident.title')}</label>
          <input {...fieldProps('title')} type="text" maxLength={200} autoComplete="off" required onChange={(e) => update('title', e.target.value)} />
          {fieldError('title')}
        </div>
        <div className="field">
          <label htmlFor="incident-description">{msg('fields.incident.description')}</label>
          <textarea {...fieldProps('description')} rows={6} required onChange={(e) => update('description', e.target.value)} />
          {fieldError('description')}
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor="incident-severity">{msg('fields.incident.severity')}</label>
            <select {...fieldProps('severity')} required onChange={(e) => update('severity', e.target.value)}>
              <option value="">{msg('incidents.new.select')}</option>
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {SEVERITY_LABELS[s]}
                </option>
              ))}
            </select>
            {fieldError('severity')}
          </div>
          <div className="field">
            <label htmlFor="incident-category">{msg('incidents.new.categoryOptional')}</label>
            <input {...fieldProps('category')} type="text" placeholder="general" /* literal-ok: the stored default category */ onChange={(e) => update('category', e.target.value)} />
            {fieldError('category')}
          </div>
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={submitting}>
            {submitting ? msg('actions.creating') : msg('incidents.new.createIncident')}
          </button>
          <button type="button" className="btn" onClick={() => navigate('/incidents/all')}>
            {msg('actions.cancel')}
          </button>
        </div>
      </form>
    </section>
  );
}
