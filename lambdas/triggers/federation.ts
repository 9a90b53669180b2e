/**
 * Which tenant a federated user belongs to (docs/platform.md#federated-sign-in): every enterprise identity
 * provider (a customer's Entra ID, Okta… over OIDC or SAML) is bound to exactly one tenant, and its users are
 * members of that tenant's group and of nothing else — never `admin`. Social providers (Google, Apple…) are
 * bound to no tenant: their users wait for staff like self-registered ones (docs/api.md#access-requests).
 *
 * Pure module: used by the pre token generation trigger (`pre-token-generation.ts`) and the infra code that
 * sets the trigger's environment (`infra/pre-token-trigger.ts`).
 */
import { ADMIN_GROUP } from '../contract/routes.js';

/** Environment variable of the trigger: JSON object, provider name → tenant id, e.g. `{"AcmeEntra":"acme"}`. */
export const FEDERATED_TENANTS_ENV = 'FEDERATED_TENANTS';

/**
 * Environment variable of the trigger: `true` when staff may configure providers at run time; the trigger then
 * reads the tenant of a provider the file does not name from the table (docs/api.md#tenant-identity-provider).
 */
export const FEDERATED_TENANTS_FROM_TABLE_ENV = 'FEDERATED_TENANTS_FROM_TABLE';

/** Provider name → tenant id. */
export type FederatedTenants = Readonly<Record<string, string>>;

/**
 * Parses {@link FEDERATED_TENANTS_ENV}; absent or empty = no enterprise provider. Entries whose tenant is
 * `admin` or not a string are dropped (the infra never writes them; a provider never grants staff rights).
 * @throws SyntaxError on malformed JSON (a deployment error: better loud than every federated user tenant-less)
 */
export function parseFederatedTenants(value: string | undefined): FederatedTenants {
  if (!value) return {};
  const parsed = JSON.parse(value) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SyntaxError(`${FEDERATED_TENANTS_ENV} must be a JSON object`);
  return Object.fromEntries(Object.entries(parsed).filter(([, t]) => typeof t === 'string' && t !== '' && t !== ADMIN_GROUP)) as FederatedTenants;
}

/**
 * The identity provider a user signed in through, or `null` for a native user of the pool. Cognito keeps it in
 * the read-only `identities` attribute (a JSON array of `{ providerName, providerType, userId, … }`, Amazon
 * Cognito developer guide, "Using identity providers") and names the user `<providerName>_<subject>`; the
 * attribute is read first, the user name only when the attribute is absent. In this pool native users are
 * named by a UUID (`sub`; e-mail is an alias), so no native user name carries a provider prefix.
 * @param knownProviders provider names to recognise in the user name (the configured ones)
 */
export function federatedProviderOf(userName: string, attributes: Readonly<Record<string, string | undefined>>, knownProviders: readonly string[]): string | null {
  const raw = attributes.identities;
  if (raw) {
    try {
      const identities = JSON.parse(raw) as unknown;
      if (Array.isArray(identities)) {
        const first = identities.find((i): i is { providerName: string } => !!i && typeof (i as { providerName?: unknown }).providerName === 'string');
        if (first) return first.providerName;
      }
    } catch {
      // Not JSON: fall back to the user name.
    }
  }
  return knownProviders.find((p) => userName.startsWith(`${p}_`)) ?? null;
}

/**
 * The tenant group a federated user must be in, or `null` when the user is native or came through a provider
 * bound to no tenant (a social provider).
 */
export function federatedTenantOf(userName: string, attributes: Readonly<Record<string, string | undefined>>, tenants: FederatedTenants): string | null {
  const provider = federatedProviderOf(userName, attributes, Object.keys(tenants));
  return provider !== null && Object.hasOwn(tenants, provider) ? tenants[provider]! : null;
}
