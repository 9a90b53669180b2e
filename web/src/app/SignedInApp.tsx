/**
 * The signed-in portal (lazy chunk loaded by `AuthGate`): router, SWR, API client, session and tenant
 * providers, and the route table.
 */
import { useMemo } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import type { PortalConfig } from '../shared/lib/config';
import type { ApiError } from '../shared/lib/api';
import { ApiProvider } from '../shared/lib/api-context';
import { SessionProvider } from '../shared/lib/session';
import { TenantProvider } from '../shared/lib/tenant';
import { setMessagesLanguage } from '../shared/lib/messages';
import { getPreferences, usePreferences } from '../features/settings/preferences';
import { AppRoutes } from './AppRoutes';
import { apiClientFor } from './prefetch-signed-in';

// The first render is already in the preferred language (docs/portal.md#messages).
setMessagesLanguage(getPreferences().language);

/** SWR defaults: no retry storm on client errors, no retry on session loss. */
const swrOptions = {
  shouldRetryOnError: (err: ApiError) => err.kind === 'network' || err.kind === 'timeout' || err.kind === 'server',
  errorRetryCount: 2,
  revalidateOnFocus: false,
};

export default function SignedInApp({ config }: { config: PortalConfig }) {
  // The client the sign-in's prefetch used (prefetch-signed-in.ts): one per page.
  const client = useMemo(() => apiClientFor(config.apiUrl), [config.apiUrl]);
  const { language } = usePreferences();
  // A language change in /settings (or another tab) switches the catalogue before the tree below renders, and
  // the routes are keyed by the language so every screen renders again with it — also the texts read with the
  // catalogue's plain `t` (docs/portal.md#messages). Idempotent: switching to the current language is a no-op.
  setMessagesLanguage(language);
  return (
    <BrowserRouter>
      <SWRConfig value={swrOptions}>
        <ApiProvider client={client}>
          <SessionProvider>
            <TenantProvider>
              <AppRoutes key={language} brandName={config.brandName} />
            </TenantProvider>
          </SessionProvider>
        </ApiProvider>
      </SWRConfig>
    </BrowserRouter>
  );
}
