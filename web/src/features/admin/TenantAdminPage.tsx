/** `/admin/tenants/{tenantId}` (staff, docs/portal.md#administration): the customer's settings, users and identity provider. */
import { useParams } from 'react-router-dom';
import { ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { useTenantDetail } from './api';
import { IdentityProviderCard } from './IdentityProviderCard';
import { t as msg } from '../../shared/lib/messages';
import { AdminNav } from './AdminNav';
import { TenantSettingsForm } from './TenantSettingsForm';
import { UsersCard } from './UsersCard';

export function TenantAdminPage() {
  const { tenantId } = useParams();
  const tenant = useTenantDetail(tenantId);
  return (
    <section>
      <AdminNav />
      {tenant.error && !tenant.data ? (
        <>
          <PageHeader title={msg('admin.pages.tenantPageTitleLoading', { id: tenantId ?? '' })} />
          <ErrorState error={tenant.error} onRetry={() => void tenant.mutate()} />
        </>
      ) : tenant.isLoading || !tenant.data ? (
        <LoadingState />
      ) : (
        <>
          <PageHeader title={msg('admin.pages.tenantPageTitle', { name: tenant.data.name })} />
          <TenantSettingsForm key={tenant.data.id} tenant={tenant.data} />
          <IdentityProviderCard tenantId={tenant.data.id} tenantName={tenant.data.name} />
          <UsersCard tenantId={tenant.data.id} tenantName={tenant.data.name} />
        </>
      )}
    </section>
  );
}
