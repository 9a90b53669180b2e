/**
 * Benchmark reference page: ONLY Amplify UI's `<Authenticator>` (e-mail sign-in, Spanish), built with the
 * portal's Vite/React/Amplify versions (why: docs/benchmarks.md#portal-the-authenticator-only-page). After
 * sign-in it renders one line, so the bench can time "submit → signed in" without any portal code.
 *
 * Configuration: `window.__VIGIA_BENCH_CONFIG__` (injected by the bench before load; the local user
 * pool) or placeholder ids (the form renders the same either way). No network request before the form.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Amplify } from 'aws-amplify';
import { I18n } from 'aws-amplify/utils';
import { Authenticator, translations } from '@aws-amplify/ui-react';
import '@aws-amplify/ui-react/styles.css';

interface BenchConfig {
  userPoolId: string;
  userPoolClientId: string;
  userPoolEndpoint?: string;
}
const injected = (window as unknown as { __VIGIA_BENCH_CONFIG__?: BenchConfig }).__VIGIA_BENCH_CONFIG__;
const cfg: BenchConfig = injected ?? { userPoolId: 'us-east-1_reference', userPoolClientId: 'reference' };

Amplify.configure({
  Auth: { Cognito: { userPoolId: cfg.userPoolId, userPoolClientId: cfg.userPoolClientId, loginWith: { email: true }, ...(cfg.userPoolEndpoint ? { userPoolEndpoint: cfg.userPoolEndpoint } : {}) } },
});
I18n.putVocabularies(translations);
I18n.putVocabulariesForLanguage('es', { Email: 'Correo electrónico' });
I18n.setLanguage('es');

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Authenticator loginMechanisms={['email']}>{({ user }) => <p data-bench="signed-in">Sesión iniciada: {user?.username}</p>}</Authenticator>
  </StrictMode>,
);
