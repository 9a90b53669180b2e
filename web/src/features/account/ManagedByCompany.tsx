/**
 * The notice a federated user sees instead of the password change and the TOTP set-up (docs/portal.md#screens,
 * docs/api.md#me): their credentials live at their company's identity provider, named from `GET /me`.
 */
import { t as msg } from '../../shared/lib/messages';

export function ManagedByCompany({ provider }: { provider: string }) {
  return (
    <section className="card" aria-labelledby="managed-by-company">
      <h2 id="managed-by-company">{msg('account.profile.signInSecurity')}</h2>
      <p role="note">{msg('account.profile.managedByCompany', { provider })}</p>
    </section>
  );
}
