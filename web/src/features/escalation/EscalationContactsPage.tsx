/**
 * `/escalation-contacts` "Contactos de escalado" (docs/portal.md#escalation-contacts): whom the SOC calls about the
 * tenant's incidents, by severity and hours, in calling order — kept by the customer (`GET`/`PUT
 * /escalation-contacts`) and by staff for the tenant picked in the header. Staff see them on every incident of the
 * tenant (incidents/EscalationContactsPanel.tsx). Loading, error and empty states; the saved notice outlives the
 * form, which is re-mounted on every new version (after a save, or the reload after a 409 VERSION_CONFLICT).
 */
import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { callOp, useApi, useApiSWR } from '../../shared/lib/api-context';
import { formatDateTime } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';
import { useTenant } from '../../shared/lib/tenant';
import { ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import { contactOf } from './contact-draft';
import { ContactsForm } from './ContactsForm';
import './escalation.css';

export function EscalationContactsPage() {
  const { tenants, activeTenant } = useTenant();
  const api = useApi();
  const { mutate: mutateKey } = useSWRConfig();
  const query = activeTenant ? { tenant: activeTenant } : null;
  const contacts = useApiSWR('getEscalationContacts', query ? { query } : null, { revalidateOnFocus: false });
  const [notice, setNotice] = useState<'saved' | 'conflict' | null>(null);
  const tenantName = tenants.find((t) => t.id === activeTenant)?.name ?? activeTenant ?? '';
  const data = contacts.data;

  return (
    <section className="escalation-contacts">
      <PageHeader title={msg('menu.escalationContacts')} />
      <p>{msg('escalation.page.intro', { tenant: tenantName })}</p>
      {notice === 'saved' && (
        <p className="notice-ok" role="status">
          {msg('escalation.page.saved')}
        </p>
      )}
      {notice === 'conflict' && (
        <p className="error-state" role="alert">
          {msg('escalation.page.conflict')}
        </p>
      )}
      {contacts.error && !data ? (
        <ErrorState error={contacts.error} onRetry={() => void contacts.mutate()} />
      ) : !data || !query ? (
        <LoadingState rows={4} />
      ) : (
        <>
          <ContactsForm
            key={`${activeTenant}-${data.version}`}
            initial={data}
            save={async (version, drafts) => {
              setNotice(null);
              const saved = await callOp(api, 'putEscalationContacts', { query, body: { version, contacts: drafts.map(contactOf) } });
              await mutateKey(['getEscalationContacts', { query }], saved, { revalidate: false });
              return saved;
            }}
            onDone={(outcome) => {
              setNotice(outcome);
              if (outcome === 'conflict') void contacts.mutate();
            }}
          />
          {data.updatedAt && data.updatedBy && <p className="muted small">{msg('escalation.page.lastSaved', { who: data.updatedBy, when: formatDateTime(data.updatedAt) })}</p>}
        </>
      )}
    </section>
  );
}
