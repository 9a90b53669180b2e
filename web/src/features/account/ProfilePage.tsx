/**
 * `/profile` (docs/portal.md#screens): the signed-in user's e-mail, groups and tenants; two-step verification with an
 * authenticator app (set up with the QR code, verify a code, turn off) and remembered devices (list, forget).
 */
import { Link } from 'react-router-dom';
import { useSession } from '../../shared/lib/session';
import { useTenant } from '../../shared/lib/tenant';
import { PageHeader } from '../../shared/ui/states';
import { DevicesCard } from './DevicesCard';
import { MfaCard } from './MfaCard';

/** How the portal names itself in the user's authenticator app (the `issuer` of the otpauth URI). */
export const TOTP_ISSUER = 'Vigía';

export function ProfilePage() {
  const session = useSession();
  const { me } = useTenant();
  const email = session.status === 'ready' ? session.user.email : '';
  const groups = session.status === 'ready' ? session.user.groups : [];
  return (
    <section>
      <PageHeader title="Perfil" />
      <section className="card" aria-labelledby="profile-data">
        <h2 id="profile-data">Datos de la cuenta</h2>
        <dl className="details">
          <dt>Correo electrónico</dt>
          <dd>{email || 'User'}</dd>
          <dt>Grupos</dt>
          <dd>{groups.join(', ') || '—'}</dd>
          <dt>Clientes</dt>
          <dd>{me?.tenants.map((t) => t.name || t.id).join(', ') || '—'}</dd>
          <dt>Administrador</dt>
          <dd>{me?.isAdmin ? 'Sí' : 'No'}</dd>
        </dl>
        <p>
          <Link to="/page/passwordchange">Cambiar contraseña</Link> · <Link to="/page/logout">Cerrar sesión</Link>
        </p>
      </section>
      <MfaCard issuer={TOTP_ISSUER} email={email} />
      <DevicesCard />
    </section>
  );
}
