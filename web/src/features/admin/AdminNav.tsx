/** The administration breadcrumb: customers · SOC staff · access requests. */
import { Link } from 'react-router-dom';
import '../../shared/ui/screens.css';
import { t as msg } from '../../shared/lib/messages';

export function AdminNav() {
  return (
    <p className="breadcrumb">
      <Link to="/admin/tenants">{msg('menu.tenants')}</Link> · <Link to="/admin/staff">{msg('menu.staff')}</Link> ·{' '}
      <Link to="/admin/access-requests">{msg('menu.accessRequests')}</Link>
    </p>
  );
}
