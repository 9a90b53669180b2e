/** `/profile`: the signed-in user's e-mail, groups and tenants (read-only for now). */
import { Link } from 'react-router-dom';
import { useSession } from '../../shared/lib/session';
import { useTenant } from '../../shared/lib/tenant';
import { PageHeader } from '../../shared/ui/states';

export function ProfilePage() {
  const session = useSession();
  const { me } = useTenant();
  const email = session.status === 'ready' ? session.user.email : '';
  return (
    <section>
      <PageHeader title="Perfil" />
      <div className="card">
        <dl className="details">
          <dt>Correo electrónico</dt>
          <dd>{email || 'User'}</dd>
          <dt>Clientes</dt>
          <dd>{me?.tenants.map((t) => t.name || t.id).join(', ') || '—'}</dd>
          <dt>Administrador</dt>
          <dd>{me?.isAdmin ? 'Sí' : 'No'}</dd>
        </dl>
        <p>
          <Link to="/page/passwordchange">Cambiar contraseña</Link> · <Link to="/page/logout">Cerrar sesión</Link>
        </p>
      </div>
    </section>
  );
}
