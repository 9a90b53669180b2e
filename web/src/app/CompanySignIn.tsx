/**
 * "Iniciar sesión con la cuenta de tu empresa" (docs/portal.md#company-sign-in): the sign-in page's way in for a
 * customer whose organisation signs in with its own identity provider (Entra ID, Okta… over OIDC or SAML).
 *
 * The user gives the e-mail of the company account; its domain is handed to Amplify's
 * `signInWithRedirect({ provider: { idpIdentifier } })`, which sends the browser to the user pool's
 * `/oauth2/authorize` with `idp_identifier=<domain>` (authorization code + PKCE); Cognito's identifier-based
 * routing picks the provider bound to that domain, and the provider's tenant comes from the user pool's trigger,
 * never from the browser. The e-mail also goes as `login_hint`. Nothing of OAuth is done here by hand: the
 * return to the portal (code exchange, state check, clean address) is Amplify's.
 *
 * Loaded lazily by the sign-in gate, only on stages whose `config.json` says `oauth.enterprise` (the sign-in page's
 * initial JavaScript stays the widget's, docs/portal.md#bundles). Texts through the widget's dictionary
 * (`ES_OVERRIDES` in shared/lib/i18n.ts: Spanish by default, the English keys in English mode).
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Button, Flex, TextField } from '@aws-amplify/ui-react';
import { signInWithRedirect } from 'aws-amplify/auth';
import { I18n } from 'aws-amplify/utils';

/** The domain of an e-mail address, lower-cased, or `null` when `email` is not `local@domain.tld`. */
export function emailDomain(email: string): string | null {
  const match = /^[^\s@]+@([^\s@]+\.[^\s@]+)$/.exec(email.trim());
  return match ? match[1]!.toLowerCase() : null;
}

/** Starts the redirect to the company's identity provider (Amplify; resolves when the browser leaves). */
export type StartCompanySignIn = (email: string, domain: string) => Promise<void>;

const startWithAmplify: StartCompanySignIn = (email, domain) =>
  signInWithRedirect({ provider: { idpIdentifier: domain }, options: { loginHint: email } });

/** The button, then the company e-mail form. `start` is replaceable in tests. */
export default function CompanySignIn({ start = startWithAmplify }: { start?: StartCompanySignIn }) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!open) {
    return (
      <Flex direction="column" className="company-sign-in">
        <Button onClick={() => setOpen(true)}>{I18n.get('Sign in with your company account')}</Button>
      </Flex>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const domain = emailDomain(email);
    if (!domain) {
      setError(I18n.get('Enter the e-mail of your company account.'));
      return;
    }
    setError(null);
    setBusy(true);
    start(email.trim(), domain).catch((err: unknown) => {
      console.error('[vigia] company sign-in could not start', err);
      setError(I18n.get('Your company could not be reached. Try again.'));
      setBusy(false);
    });
  };
  return (
    <form className="company-sign-in" onSubmit={submit} noValidate>
      <Flex direction="column">
        <TextField
          label={I18n.get('Company e-mail')}
          name="company-email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          hasError={error !== null}
          errorMessage={error ?? undefined}
          autoFocus
        />
        <Button type="submit" variation="primary" isLoading={busy} isDisabled={busy}>
          {I18n.get('Continue with your company')}
        </Button>
      </Flex>
    </form>
  );
}
