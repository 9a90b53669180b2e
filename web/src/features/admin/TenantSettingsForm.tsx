/** A customer's name, contract SLA targets per severity (response and resolution, minutes) and device availability target. */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { SEVERITIES } from '../../shared/lib/contract';
import type { Severity, SlaTargets, Tenant } from '../../shared/lib/contract';
import { SEVERITY_LABELS } from '../../shared/lib/format';
import '../../shared/ui/screens.css';
import { useAdminActions } from './api';
import { t as msg } from '../../shared/lib/messages';
import { NoticeBox, attempt, type Notice } from './admin-notice';
import { Field } from './Field';
import { FormActions } from '../../shared/ui/FormActions';

type TargetDraft = Record<Severity, { response: string; resolution: string }>;

function draftOf(t?: SlaTargets): TargetDraft {
  const out = {} as TargetDraft;
  for (const s of SEVERITIES) out[s] = { response: t?.[s] ? String(t[s].responseMinutes) : '', resolution: t?.[s] ? String(t[s].resolutionMinutes) : '' };
  return out;
}

/** Whole minutes 1–525,600 (one year), the contract's limits, or null. */
function minutes(v: string): number | null {
  if (!/^\d+$/.test(v.trim())) return null;
  const n = Number(v.trim());
  return n >= 1 && n <= 525_600 ? n : null;
}

export function TenantSettingsForm({ tenant }: { tenant: Tenant }) {
  const { updateTenant } = useAdminActions();
  const [name, setName] = useState(tenant.name);
  const [targets, setTargets] = useState<TargetDraft>(() => draftOf(tenant.slaTargets));
  const [availability, setAvailability] = useState(tenant.availabilityTargetPct !== undefined ? String(tenant.availabilityTargetPct) : '');
  // Days before a resolved incident closes automatically (docs/sla.md#automatic-closure); empty = the default 7.
  const [autoClose, setAutoClose] = useState(tenant.autoCloseDays !== undefined ? String(tenant.autoCloseDays) : '');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (name.trim().length < 1 || name.trim().length > 120) return setError(msg('admin.pages.tenantNameInvalid'));
    const slaTargets: SlaTargets = {};
    for (const s of SEVERITIES) {
      const { response, resolution } = targets[s];
      if (response.trim() === '' && resolution.trim() === '') continue;
      const r = minutes(response);
      const z = minutes(resolution);
      if (r === null || z === null) return setError(msg('admin.pages.slaTargetsInvalid', { severity: SEVERITY_LABELS[s] }));
      slaTargets[s] = { responseMinutes: r, resolutionMinutes: z };
    }
    const pct = availability.trim() === '' ? undefined : Number(availability.replace(',', '.'));
    if (pct !== undefined && (!Number.isFinite(pct) || pct < 0 || pct > 100)) return setError(msg('admin.pages.availabilityTargetInvalid'));
    const days = autoClose.trim() === '' ? undefined : /^\d+$/.test(autoClose.trim()) ? Number(autoClose.trim()) : NaN;
    if (days !== undefined && !(days >= 1 && days <= 90)) return setError(msg('admin.pages.autoCloseDaysInvalid'));
    setError(null);
    setBusy(true);
    setNotice(
      await attempt(
        () => updateTenant(tenant.id, { name: name.trim(), slaTargets, ...(pct !== undefined ? { availabilityTargetPct: pct } : {}), ...(days !== undefined ? { autoCloseDays: days } : {}) }),
        msg('admin.pages.settingsSaved'),
      ),
    );
    setBusy(false);
  };
  const setTarget = (s: Severity, k: 'response' | 'resolution', v: string) => setTargets((t) => ({ ...t, [s]: { ...t[s], [k]: v } }));

  return (
    <form className="card form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <h2>{msg('admin.pages.detailsAndContract')}</h2>
      <NoticeBox notice={notice} />
      <div className="field-row">
        <Field id="tenant-edit-name" label={msg('admin.pages.name')}>
          <input id="tenant-edit-name" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field id="tenant-availability" label={msg('admin.pages.availabilityTargetInput')}>
          <input id="tenant-availability" inputMode="decimal" value={availability} placeholder={msg('admin.pages.default')} onChange={(e) => setAvailability(e.target.value)} />
        </Field>
        <Field id="tenant-auto-close" label={msg('admin.pages.autoCloseDays')}>
          <input id="tenant-auto-close" inputMode="numeric" value={autoClose} placeholder={msg('admin.pages.autoCloseDaysDefault')} onChange={(e) => setAutoClose(e.target.value)} />
        </Field>
      </div>
      <table className="sla-targets">
        <caption>{msg('admin.pages.slaTargetsLegend')}</caption>
        <thead>
          <tr>
            <th scope="col">{msg('admin.pages.severity')}</th>
            <th scope="col">{msg('admin.pages.response')}</th>
            <th scope="col">{msg('admin.pages.resolution')}</th>
          </tr>
        </thead>
        <tbody>
          {SEVERITIES.map((s) => (
            <tr key={s}>
              <th scope="row">{SEVERITY_LABELS[s]}</th>
              <td>
                <input aria-label={msg('admin.pages.responseMinutes', { severity: SEVERITY_LABELS[s] })} inputMode="numeric" value={targets[s].response} onChange={(e) => setTarget(s, 'response', e.target.value)} />
              </td>
              <td>
                <input aria-label={msg('admin.pages.resolutionMinutes', { severity: SEVERITY_LABELS[s] })} inputMode="numeric" value={targets[s].resolution} onChange={(e) => setTarget(s, 'resolution', e.target.value)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <FormActions busy={busy} label={msg('actions.saveChanges')} busyLabel={msg('actions.saving')} error={error} />
    </form>
  );
}
