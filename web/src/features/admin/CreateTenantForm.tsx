/** "Crear cliente": id (lower-case letters, digits, hyphens; reserved names refused by the API) and name. */
import { useState } from 'react';
import type { FormEvent } from 'react';
import '../../shared/ui/screens.css';
import { useAdminActions } from './api';
import { t as msg } from '../../shared/lib/messages';
import { NoticeBox, attempt, type Notice } from './admin-notice';
import { Field } from './Field';
import { FormActions } from '../../shared/ui/FormActions';

const TENANT_ID_RE = /^[a-z0-9][a-z0-9-]{1,62}$/;

export function CreateTenantForm() {
  const { createTenant } = useAdminActions();
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ id?: string; name?: string }>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (!TENANT_ID_RE.test(id)) next.id = msg('admin.pages.n2To63Characters');
    if (name.trim().length < 1 || name.trim().length > 120) next.name = msg('admin.pages.tenantNameInvalid');
    setErrors(next);
    if (next.id || next.name) return;
    setBusy(true);
    const n = await attempt(() => createTenant({ tenantId: id, name: name.trim() }), msg('admin.pages.customerCreated', { name: name.trim() }));
    setNotice(n);
    if (n?.tone === 'ok') {
      setId('');
      setName('');
    }
    setBusy(false);
  };
  return (
    <form className="card form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <h2>{msg('admin.pages.createCustomer')}</h2>
      <NoticeBox notice={notice} />
      <div className="field-row">
        <Field id="tenant-id" label={msg('admin.pages.idGroupName')} error={errors.id}>
          <input id="tenant-id" value={id} autoComplete="off" maxLength={63} aria-invalid={errors.id ? true : undefined} aria-describedby={errors.id ? 'tenant-id-error' : undefined} onChange={(e) => setId(e.target.value.trim().toLowerCase())} />
        </Field>
        <Field id="tenant-name" label={msg('admin.pages.name')} error={errors.name}>
          <input id="tenant-name" value={name} autoComplete="off" maxLength={120} aria-invalid={errors.name ? true : undefined} aria-describedby={errors.name ? 'tenant-name-error' : undefined} onChange={(e) => setName(e.target.value)} />
        </Field>
      </div>
      <FormActions busy={busy} label={msg('admin.pages.createCustomer')} busyLabel={msg('actions.creating')} />
    </form>
  );
}
