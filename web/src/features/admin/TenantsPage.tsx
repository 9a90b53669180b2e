/** `/admin/tenants` (staff, docs/portal.md#administration): the customers with their user and device counts, and "Crear cliente". */
import { Link } from 'react-router-dom';
import type { TenantSummary } from '../../shared/lib/contract';
import { PageHeader } from '../../shared/ui/states';
import { DataTable, ListFrame } from '../../shared/ui/lists';
import '../../shared/ui/screens.css';
import { useTenants } from './api';
import { t as msg } from '../../shared/lib/messages';
import { AdminNav } from './AdminNav';
import { CreateTenantForm } from './CreateTenantForm';

export function TenantsPage() {
  const list = useTenants();
  const rows = list.items as TenantSummary[];
  return (
    <section>
      <AdminNav />
      <PageHeader title={msg('menu.tenants')} />
      <CreateTenantForm />
      <div className="card">
        <h2>{msg('admin.pages.registeredCustomers')}</h2>
        <ListFrame list={list} empty={msg('admin.pages.noCustomersRegistered')}>
          <DataTable
            caption={msg('admin.pages.tenantsCaption')}
            rowKey={(t) => t.id}
            rows={rows}
            columns={[
              { label: msg('fields.common.customer'), cell: (t) => <Link to={`/admin/tenants/${encodeURIComponent(t.id)}`}>{t.name}</Link> },
              { label: msg('admin.pages.id'), cell: (t) => t.id },
              { label: msg('admin.pages.users'), cell: (t) => t.userCount ?? '—' },
              { label: msg('admin.pages.devices'), cell: (t) => t.deviceCount ?? '—' },
              { label: msg('admin.pages.availabilityTarget'), cell: (t) => (t.availabilityTargetPct !== undefined ? `${t.availabilityTargetPct} %` : msg('admin.pages.default')) },
            ]}
          />
          <p className="muted">{msg('admin.pages.customersShown', { count: rows.length })}</p>
        </ListFrame>
      </div>
    </section>
  );
}
