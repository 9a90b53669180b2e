/**
 * The page of a signed-in account in no group (docs/portal.md#groups-and-tenants): the account exists but no
 * administrator has given it a tenant yet. Staff were told through the audit log (`user.access_request`,
 * written by the user pool's trigger at the sign-in). The session is signed out globally while this page is
 * shown; its button returns to the sign-in form once that is done. Shown by the sign-in gate, so it is part of
 * the sign-in page's bundle: its texts come from the sign-in widget's dictionary (`shared/lib/i18n.ts`), as the
 * message catalogue is loaded only once signed in (docs/portal.md#messages).
 */
import { useEffect, useRef } from 'react';
import { I18n } from 'aws-amplify/utils';

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
            {brandName} <span className="brand-tag">{I18n.get('CUSTOMER')}</span>
          </strong>
        </p>
        <h1 id="awaiting-access-title" ref={heading} tabIndex={-1}>
          {I18n.get('Account awaiting approval')}
        </h1>
        <p>
          {email ? (
            <>
              {I18n.get('Your account')} <strong>{email}</strong> {I18n.get('has been created but has no access to the portal yet.')}
            </>
          ) : (
            I18n.get('Your account has been created but has no access to the portal yet.')
          )}
        </p>
        <p>{I18n.get('An administrator has to grant you access to your company; we have let them know. When they do, sign in again.')}</p>
        <p role="status">{signedOut ? I18n.get('We have signed you out.') : I18n.get('Signing you out…')}</p>
        <button type="button" className="btn btn-primary" onClick={onLeave} disabled={!signedOut}>
          {I18n.get('Back to Sign In')}
        </button>
      </section>
    </main>
  );
}
