/**
 * In-memory stand-ins of Cognito's provider and app client calls and of Secrets Manager for the admin handler's
 * staff-configured identity providers (lambdas/domain/identity-providers.ts), for the suites that walk every row of
 * the route table in process (`startInProcessApi`); the local stack's real ones are tested in
 * test/integration/identity-providers-admin.test.ts.
 */
import type { CognitoProviderSpec, IdentityProviderAdminPort, SecretsPort } from '../../lambdas/domain/identity-providers.js';

export function memoryIdentityProviders(): { cognito: IdentityProviderAdminPort; secrets: SecretsPort } {
  const providers = new Map<string, CognitoProviderSpec>();
  const secrets = new Map<string, string>();
  let client = ['COGNITO'];
  return {
    cognito: {
      describe: async (n) => providers.get(n) ?? null,
      create: async (s) => void providers.set(s.name, s),
      update: async (s) => void providers.set(s.name, s),
      delete: async (n) => void providers.delete(n),
      providerOfIdentifier: async (d) => [...providers.values()].find((p) => p.identifiers.includes(d))?.name ?? null,
      clientProviders: async () => [...client],
      updateClientProviders: async (change) => {
        client = change(client);
      },
    },
    secrets: {
      put: async (n, v) => void secrets.set(n, v),
      get: async (n) => secrets.get(n) ?? null,
      delete: async (n) => void secrets.delete(n),
    },
  };
}
