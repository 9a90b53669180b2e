/**
 * The page of a signed-in account in no group (docs/portal.md#groups-and-tenants): the account exists but no
 * administrator has given it a tenant yet. Staff were told through the audit log (`user.access_request`,
 * written by the user pool's trigger at the sign-in). The session is signed out globally while this page is
 * shown; its button returns to the sign-in form once that is done. Shown by the sign-in gate, so it is part of
 * the sign-in page's bundle (Spanish literals: the message catalogue is loaded only once signed in).
 */
import { useEffect, useRef } from 'react';

export interface AwaitingAccessPageProps {
  brandName: string;
  /** The account's e-mail, '' when unknown. */
  email: string;
  /** Whether the global sign-out has finished (the button is enabled then). */
  signedOut: boolean;
  /** Back to the sign-in form. */
  onLeave: () => void;
}

export function AwaitingAccessPage({ brandName, email, signedOut, onLeave }: AwaitingAccessPageProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <main className="signin-page">
      <section className="card" aria-labelledby="awaiting-access-title" style={{ maxWidth: '32rem', width: '100%', padding: '1.5rem' }}>
        <p className="signin-brand">
          <strong>
            {brandName} <span className="brand-tag">CLIENTE</span>
          </strong>
        </p>
        <h1 id="awaiting-access-title" ref={heading} tabIndex={-1}>
          Cuenta pendiente de aprobación
        </h1>
        <p>
          {email ? (
            <>
              Tu cuenta <strong>{email}</strong> está creada, pero todavía no tiene acceso al portal.
            </>
          ) : (
            'Tu cuenta está creada, pero todavía no tiene acceso al portal.'
          )}
        </p>
        <p>Un administrador tiene que concederte acceso a tu empresa; ya le hemos avisado. Cuando lo haga, vuelve a iniciar sesión.</p>
        <p role="status">{signedOut ? 'Hemos cerrado la sesión.' : 'Cerrando la sesión…'}</p>
        <button type="button" className="btn btn-primary" onClick={onLeave} disabled={!signedOut}>
          Volver a iniciar sesión
        </button>
      </section>
    </main>
  );
}
