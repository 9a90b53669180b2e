/**
 * `/profile` (docs/portal.md#screens): the signed-in user's e-mail, groups and tenants; two-step verification with an
 * authenticator app (set up with the QR code, verify a code, turn off) and remembered devices (list, forget).
 * A federated user (`GET /me` `federated`) gets neither the password change nor the TOTP set-up: a notice that
 * their company's identity provider manages the account.
 */
import { Link } from 'react-router-dom';
import { useSession } from '../../shared/lib/session';
import { useTenant } from '../../shared/lib/tenant';
import { PageHeader } from '../../shared/ui/states';
import { DevicesCard } from './DevicesCard';
import { ManagedByCompany } from './ManagedByCompany';
import { MfaCard } from './MfaCard';
import { t as msg } from '../../shared/lib/messages';

/** How the portal names itself in the user's authenticator app (the `issuer` of the otpauth URI). */
export const TOTP_ISSUER = 'Vigía'; // literal-ok: the product's name in the otpauth URI, not a UI text

export function ProfilePage() {
  const session = useSession();
  const { me } = useTenant();
  const email = session.status === 'ready' ? session.user.email : '';
  const groups = session.status === 'ready' ? session.user.groups : [];
  const federated = me?.federated === true;
  return (
    <section>
      <PageHeader title={msg('chrome.profile')} />
      <section className="card" aria-labelledby="profile-data">
        <h2 id="profile-data">{msg('account.profile.accountDetails')}</h2>
        <dl className="details">
          <dt>{msg('account.profile.email')}</dt>
          <dd>{email || msg('chrome.userFallback')}</dd>
          <dt>{msg('account.profile.groups')}</dt>
          <dd>{groups.join(', ') || '—'}</dd>
          <dt>{msg('account.profile.customers')}</dt>
          <dd>{me?.tenants.map((t) => t.name || t.id).join(', ') || '—'}</dd>
          <dt>{msg('account.profile.administrator')}</dt>
          <dd>{me?.isAdmin ? msg('account.profile.yes') : msg('account.profile.no')}</dd>
        </dl>
        <p>
          {federated ? null : <><Link to="/page/passwordchange">{msg('chrome.passwordChange')}</Link> · </>}
          <Link to="/page/logout">{msg('chrome.signOut')}</Link>
        </p>
      </section>
      {federated ? <ManagedByCompany provider={me?.identityProvider ?? ''} /> : <MfaCard issuer={TOTP_ISSUER} email={email} />}
      <DevicesCard />
    </section>
  );
}
