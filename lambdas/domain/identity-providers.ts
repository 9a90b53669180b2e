/**
 * A tenant's enterprise identity provider, configured by staff at run time (docs/api.md#tenant-identity-provider):
 * the customer's own Entra ID, Okta… over OIDC (issuer, client id, client secret, scopes) or SAML (metadata URL),
 * bound to exactly that tenant, with the e-mail domains routed to it by Cognito's identifier-based routing.
 * This complements the per-stage providers file (`infra/federation-config.ts`), which keeps working.
 *
 * One change touches four systems, none of which shares a transaction with another, so the steps are ordered
 * and each failure undoes the steps before it (the "no partial state" rule; docs/api.md#tenant-identity-provider):
 *
 *   PUT (create or change)                                     undone on a later failure by
 *   1. domains free: GetIdentityProviderByIdentifier per domain —
 *   2. secret (OIDC, when given): CreateSecret / PutSecretValue  the previous value put back, or the new secret deleted
 *   3. Cognito provider: CreateIdentityProvider / Update…       DeleteIdentityProvider, or Update… with the previous settings
 *   4. app client: its SupportedIdentityProviders + the name     the name taken out again (only when this call added it)
 *   5. DynamoDB: the provider → tenant item + audit entry,        — (the commit point: one TransactWriteItems)
 *      one transaction
 *
 *   DELETE                                                       undone on a later failure by
 *   1. app client: the name taken out (no new sign-in can start) the name put back
 *   2. DynamoDB: the item deleted + audit entry, one transaction — (the commit point: the trigger stops mapping)
 *   3. Cognito provider deleted, 4. secret deleted               nothing: a failure here leaves a provider no app client lists
 *                                                                and no tenant mapping, harmless; a repeated DELETE removes it
 *                                                                (both steps run even when no item is stored)
 *
 * The provider → tenant item is written last on a PUT, so the trigger maps a user to the tenant only once every
 * other step succeeded; a tenant is never `admin` (tenant ids are registry ids, and the trigger refuses `admin`).
 *
 * The client secret goes to Secrets Manager (`<prefix><tenant id>`) and to Cognito (which needs it in the
 * provider's `ProviderDetails`); it is never returned: the state says only `clientSecretSet`. A change without
 * `clientSecret` reuses the stored one (read from Secrets Manager), so staff need not type it again.
 */
import { createHash } from 'node:crypto';
import type { PutTenantIdentityProviderBody, TenantIdentityProvider, TenantIdentityProviderState } from '../contract/schemas.js';
import { DEFAULT_IDP_SCOPES } from '../contract/schemas.js';
import { auditEntryFor, type AuditRequest } from './audit.js';
import { ApiError } from './errors.js';
import { assertEmailDomainsNotReserved, assertTenantIdNotReserved } from './reserved-names.js';
import type { AuditEntry } from '../contract/schemas.js';
import type { TenantsPort } from './ports.js';

/** A provider as Cognito's `CreateIdentityProvider`/`UpdateIdentityProvider` take it. */
export interface CognitoProviderSpec {
  name: string;
  type: 'OIDC' | 'SAML';
  /** `ProviderDetails` (OIDC: client_id, client_secret, oidc_issuer, authorize_scopes, attributes_request_method; SAML: MetadataURL). */
  details: Record<string, string>;
  attributeMapping: Record<string, string>;
  identifiers: string[];
}

/** The Cognito calls of this feature, on the stage's user pool and the portal's app client. */
export interface IdentityProviderAdminPort {
  /** DescribeIdentityProvider; null when the pool has no such provider. */
  describe(name: string): Promise<CognitoProviderSpec | null>;
  create(spec: CognitoProviderSpec): Promise<void>;
  update(spec: CognitoProviderSpec): Promise<void>;
  /** DeleteIdentityProvider; a provider that does not exist is not an error. */
  delete(name: string): Promise<void>;
  /** GetIdentityProviderByIdentifier: the provider an identifier (e-mail domain) routes to, or null. */
  providerOfIdentifier(identifier: string): Promise<string | null>;
  /** The app client's `SupportedIdentityProviders` (DescribeUserPoolClient). */
  clientProviders(): Promise<string[]>;
  /**
   * Sets the app client's `SupportedIdentityProviders` to `change(current)`, keeping every other setting
   * (DescribeUserPoolClient, then UpdateUserPoolClient with the whole description: Cognito resets omitted settings).
   */
  updateClientProviders(change: (current: readonly string[]) => string[]): Promise<void>;
}

/** Secrets Manager, restricted to this feature's name prefix. */
export interface SecretsPort {
  /** CreateSecret, or PutSecretValue when it exists. */
  put(name: string, value: string): Promise<void>;
  /** GetSecretValue's `SecretString`; null when there is no such secret. */
  get(name: string): Promise<string | null>;
  /** DeleteSecret (without a recovery window, so the name can be used again); absent is not an error. */
  delete(name: string): Promise<void>;
}

/** The stored provider (item `IDP#<providerName>`), as the trigger and the staff screen read it. */
export type StoredIdentityProvider = TenantIdentityProvider & {
  /** Secrets Manager name of the client secret (OIDC). */
  secretName?: string | undefined;
};

/** DynamoDB: the provider → tenant items, each write with its audit entry in one transaction. */
export interface IdentityProviderStore {
  get(providerName: string): Promise<StoredIdentityProvider | null>;
  put(p: StoredIdentityProvider, audit: AuditEntry): Promise<void>;
  /** Deletes the item (absent: nothing) with `audit`. */
  delete(providerName: string, audit: AuditEntry): Promise<void>;
}

/** What the stage offers (from the Lambda configuration). */
export interface IdentityProviderSettings {
  /** Whether staff may configure providers here (a Cognito domain exists; `adminConfiguredProviders`). */
  available: boolean;
  /** Secrets Manager name prefix of this stage, e.g. `vigia/prod/identity-providers/`. */
  secretPrefix: string;
  /** Accept `http://` loopback addresses (the local stack's identity provider; never in AWS). */
  allowLoopbackHttp?: boolean;
  /**
   * The staff's e-mail domains (the stage's providers file `staffEmailDomains`): no provider may be routed from
   * them or their subdomains (400 RESERVED_NAME; docs/api.md#reserved-names). Default none.
   */
  staffEmailDomains?: readonly string[] | undefined;
  /** Host of the user pool's OAuth endpoints (`<prefix>.auth.<region>.amazoncognito.com`), for the redirect URL. */
  oauthDomain?: string | undefined;
  userPoolId?: string | undefined;
  /** The stage's providers file's enterprise providers with their tenants (LambdaConfig `stageProviders`). Default none. */
  stageProviders?: ReadonlyArray<{ name: string; type: 'oidc' | 'saml'; tenant: string; emailDomains: readonly string[] }> | undefined;
}

export interface IdentityProviderPorts {
  tenants: Pick<TenantsPort, 'getTenant'>;
  store: IdentityProviderStore;
  cognito: IdentityProviderAdminPort;
  secrets: SecretsPort;
  settings: IdentityProviderSettings;
}

/** Attribute mapping of every staff-configured provider: the IdP's e-mail → `email` (the pool requires it). */
export const OIDC_ATTRIBUTE_MAPPING = { email: 'email' } as const;
/** SAML: Entra ID's (and most IdPs') e-mail claim. Same as the providers file's SAML providers. */
export const SAML_EMAIL_CLAIM = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';

/**
 * The Cognito provider name of `tenantId`'s provider: `tenant-<id>`, or, when that exceeds Cognito's 32
 * characters, `tenant-<first 16 characters>-<8 hex digits of SHA-256(id)>`. Valid for Cognito (letters, digits,
 * `-`; 1–32 characters; no `_`) and distinct from the providers file's names only by convention (a clash is
 * refused by Cognito with DuplicateProviderException → 409).
 */
export function providerNameOf(tenantId: string): string {
  const plain = `tenant-${tenantId}`;
  if (plain.length <= 32) return plain;
  return `tenant-${tenantId.slice(0, 16)}-${createHash('sha256').update(tenantId).digest('hex').slice(0, 8)}`;
}

/** The Secrets Manager name of `tenantId`'s client secret. */
export const secretNameOf = (settings: Pick<IdentityProviderSettings, 'secretPrefix'>, tenantId: string): string => `${settings.secretPrefix}${tenantId}`;

/** The tenant must be registered and not the staff group (docs/api.md#reserved-names). @throws ApiError RESERVED_NAME, NOT_FOUND */
async function requireTenant(p: Pick<IdentityProviderPorts, 'tenants'>, tenantId: string): Promise<void> {
  assertTenantIdNotReserved(tenantId);
  if (!(await p.tenants.getTenant(tenantId))) throw new ApiError('NOT_FOUND', 'no such tenant');
}

function requireAvailable(settings: IdentityProviderSettings): void {
  if (!settings.available) {
    throw new ApiError('FEDERATION_UNAVAILABLE', 'this stage has no Cognito domain for company sign-in: set adminConfiguredProviders in its identityProviders file (docs/platform.md#federated-sign-in)');
  }
}

/** The public part of a stored provider (no secret name). */
function publicOf(p: StoredIdentityProvider): TenantIdentityProvider {
  const { secretName: _secret, ...rest } = p;
  return rest;
}

/** The providers file's provider bound to `tenantId` (the first, as the trigger maps a provider to one tenant), or null. */
function stageProviderOf(s: IdentityProviderSettings, tenantId: string): TenantIdentityProviderState['stageProvider'] {
  const f = (s.stageProviders ?? []).find((x) => x.tenant === tenantId);
  return f ? { name: f.name, type: f.type, emailDomains: [...f.emailDomains] } : null;
}

async function stateOf(p: IdentityProviderPorts, tenantId: string, stored: StoredIdentityProvider | null, clientProviders?: readonly string[]): Promise<TenantIdentityProviderState> {
  const providerName = providerNameOf(tenantId);
  const s = p.settings;
  const listed = stored && s.available ? (clientProviders ?? (await p.cognito.clientProviders())).includes(providerName) : false;
  return {
    available: s.available,
    providerName,
    redirectUrl: s.available && s.oauthDomain ? `https://${s.oauthDomain}/${stored?.type === 'saml' ? 'saml2' : 'oauth2'}/idpresponse` : null,
    samlEntityId: s.available && s.userPoolId ? `urn:amazon:cognito:sp:${s.userPoolId}` : null,
    provider: stored ? publicOf(stored) : null,
    enabledOnAppClient: listed,
    stageProvider: stageProviderOf(s, tenantId),
  };
}

/** `GET /tenants/{tenantId}/identity-provider` (one GetItem and one DescribeUserPoolClient when configured). @throws ApiError NOT_FOUND (tenant) */
export async function getTenantIdentityProvider(p: IdentityProviderPorts, tenantId: string): Promise<TenantIdentityProviderState> {
  await requireTenant(p, tenantId);
  // A stage without the feature stores no provider (PUT refuses): nothing to read.
  return stateOf(p, tenantId, p.settings.available ? await p.store.get(providerNameOf(tenantId)) : null);
}

/** The Cognito settings of a request body (the secret given separately). */
function specOf(name: string, body: PutTenantIdentityProviderBody, secret: string | null): CognitoProviderSpec {
  const identifiers = [...body.emailDomains];
  if (body.type === 'saml') return { name, type: 'SAML', details: { MetadataURL: body.metadataUrl }, attributeMapping: { email: SAML_EMAIL_CLAIM }, identifiers };
  return {
    name,
    type: 'OIDC',
    details: {
      client_id: body.clientId,
      ...(secret !== null ? { client_secret: secret } : {}),
      oidc_issuer: body.issuerUrl,
      authorize_scopes: (body.scopes ?? [...DEFAULT_IDP_SCOPES]).join(' '),
      attributes_request_method: 'GET',
    },
    attributeMapping: { ...OIDC_ATTRIBUTE_MAPPING },
    identifiers,
  };
}

/** Runs the undo steps newest first; an undo that fails is reported to `log` and the next one still runs. */
async function undo(steps: Array<() => Promise<void>>, log: (m: string, e: unknown) => void): Promise<void> {
  for (const step of steps.reverse()) {
    try {
      await step();
    } catch (e) {
      log('identity provider: undoing a step failed; the state may need a repeated request', e);
    }
  }
}

/** Cognito's refusal of a provider's settings → 400 VALIDATION_FAILED on the field it concerns (Spanish message). */
function cognitoRefusal(e: unknown, body: PutTenantIdentityProviderBody): never {
  const name = (e as Error).name;
  if (name === 'DuplicateProviderException') throw new ApiError('IDP_DOMAIN_IN_USE', 'another identity provider already uses this name or one of these e-mail domains', { fields: ['emailDomains'], domains: [] });
  if (name === 'InvalidParameterException') {
    const field = body.type === 'oidc' ? 'body.issuerUrl' : 'body.metadataUrl';
    const what = body.type === 'oidc' ? 'el emisor OIDC (su /.well-known/openid-configuration)' : 'los metadatos SAML';
    throw new ApiError('VALIDATION_FAILED', 'Cognito refused the identity provider settings', [{ path: field, message: `Cognito no pudo usar ${what}: ${(e as Error).message}` }]);
  }
  throw e;
}

/**
 * `PUT /tenants/{tenantId}/identity-provider`: creates or changes the tenant's provider (module doc: the steps
 * and their undo). Returns the state after the change.
 * @throws ApiError RESERVED_NAME (tenant `admin`, or a staff e-mail domain; nothing written), NOT_FOUND (tenant),
 *   FEDERATION_UNAVAILABLE (stage), VALIDATION_FAILED (`clientSecret` missing for a
 *   new OIDC provider; Cognito refusing the issuer/metadata), IDP_DOMAIN_IN_USE (a domain routed to another provider)
 */
export async function putTenantIdentityProvider(
  p: IdentityProviderPorts,
  tenantId: string,
  body: PutTenantIdentityProviderBody,
  req: AuditRequest,
  log: (m: string, e: unknown) => void = (m, e) => console.error(m, e),
): Promise<TenantIdentityProviderState> {
  // The tenant first: a table that cannot be read answers 503 whatever the stage offers.
  await requireTenant(p, tenantId);
  requireAvailable(p.settings);
  assertEmailDomainsNotReserved(body.emailDomains, p.settings.staffEmailDomains ?? []);
  const url = body.type === 'oidc' ? body.issuerUrl : body.metadataUrl;
  if (!url.startsWith('https://') && !p.settings.allowLoopbackHttp) {
    throw new ApiError('VALIDATION_FAILED', 'https address required', [{ path: body.type === 'oidc' ? 'body.issuerUrl' : 'body.metadataUrl', message: 'Debe ser una dirección https:// completa.' }]);
  }
  const name = providerNameOf(tenantId);
  const before = await p.store.get(name);
  const secretName = secretNameOf(p.settings, tenantId);
  const given = body.type === 'oidc' ? (body.clientSecret ?? null) : null;
  if (body.type === 'oidc' && given === null && !(before?.type === 'oidc' && before.clientSecretSet)) {
    throw new ApiError('VALIDATION_FAILED', 'a new OIDC provider needs its client secret', [{ path: 'body.clientSecret', message: 'Indica el secreto de cliente (obligatorio la primera vez).' }]);
  }

  // 1. Every domain free (or already this provider's).
  const taken: string[] = [];
  for (const d of body.emailDomains) {
    const owner = await p.cognito.providerOfIdentifier(d);
    if (owner !== null && owner !== name) taken.push(d);
  }
  if (taken.length > 0) {
    throw new ApiError('IDP_DOMAIN_IN_USE', `e-mail domain already routed to another identity provider: ${taken.join(', ')}`, { fields: ['emailDomains'], domains: taken });
  }

  const undoSteps: Array<() => Promise<void>> = [];
  try {
    // 2. The secret.
    let secret: string | null = null;
    if (body.type === 'oidc') {
      if (given !== null) {
        const previous = await p.secrets.get(secretName);
        await p.secrets.put(secretName, given);
        undoSteps.push(() => (previous === null ? p.secrets.delete(secretName) : p.secrets.put(secretName, previous)));
        secret = given;
      } else {
        secret = await p.secrets.get(secretName);
        if (secret === null) {
          throw new ApiError('VALIDATION_FAILED', 'the stored client secret is missing', [{ path: 'body.clientSecret', message: 'No hay secreto de cliente guardado: indícalo de nuevo.' }]);
        }
      }
    }

    // 3. The Cognito provider (a SAML ↔ OIDC change replaces it: Cognito cannot change a provider's type).
    const spec = specOf(name, body, secret);
    const existing = await p.cognito.describe(name);
    try {
      if (existing && existing.type === spec.type) {
        await p.cognito.update(spec);
        undoSteps.push(() => p.cognito.update(existing));
      } else {
        if (existing) {
          await p.cognito.delete(name);
          undoSteps.push(() => p.cognito.create(existing));
        }
        await p.cognito.create(spec);
        undoSteps.push(() => p.cognito.delete(name));
      }
    } catch (e) {
      cognitoRefusal(e, body);
    }

    // 4. The app client lists it.
    const listed = await p.cognito.clientProviders();
    let clientProviders = listed;
    if (!listed.includes(name)) {
      await p.cognito.updateClientProviders((current) => [...current.filter((x) => x !== name), name]);
      clientProviders = [...listed, name];
      undoSteps.push(() => p.cognito.updateClientProviders((current) => current.filter((x) => x !== name)));
    }

    // 5. The provider → tenant item with its audit entry (the commit point).
    const now = req.now.toISOString();
    const stored: StoredIdentityProvider = {
      tenantId,
      providerName: name,
      type: body.type,
      ...(body.type === 'oidc'
        ? { issuerUrl: body.issuerUrl, clientId: body.clientId, scopes: body.scopes ?? [...DEFAULT_IDP_SCOPES], secretName }
        : { metadataUrl: body.metadataUrl }),
      emailDomains: [...body.emailDomains],
      clientSecretSet: body.type === 'oidc',
      updatedAt: now,
    };
    const view = (x: StoredIdentityProvider): Record<string, unknown> =>
      Object.fromEntries(Object.entries({ type: x.type, issuerUrl: x.issuerUrl, clientId: x.clientId, scopes: x.scopes, metadataUrl: x.metadataUrl, emailDomains: x.emailDomains, clientSecretSet: x.clientSecretSet }).filter(([, v]) => v !== undefined));
    const change = { ...(before ? { before: view(before) } : {}), after: { ...view(stored), ...(given !== null ? { clientSecretChanged: true } : {}) } };
    const audit = auditEntryFor(req, tenantId, 'tenant.identity_provider_set', { type: 'identity_provider', id: name }, change);
    await p.store.put(stored, audit);
    return await stateOf(p, tenantId, stored, clientProviders);
  } catch (e) {
    await undo(undoSteps, log);
    throw e;
  }
}

/**
 * `DELETE /tenants/{tenantId}/identity-provider`: removes the tenant's provider (module doc: the steps). Idempotent:
 * with nothing stored, the Cognito provider and the secret of the tenant are still removed (a repeated request
 * finishes an interrupted one) and no audit entry is written.
 * @throws ApiError NOT_FOUND (tenant), FEDERATION_UNAVAILABLE (stage)
 */
export async function deleteTenantIdentityProvider(
  p: IdentityProviderPorts,
  tenantId: string,
  req: AuditRequest,
  log: (m: string, e: unknown) => void = (m, e) => console.error(m, e),
): Promise<TenantIdentityProviderState> {
  await requireTenant(p, tenantId);
  requireAvailable(p.settings);
  const name = providerNameOf(tenantId);
  const before = await p.store.get(name);

  const listed = (await p.cognito.clientProviders()).includes(name);
  if (listed) await p.cognito.updateClientProviders((current) => current.filter((x) => x !== name));
  if (before) {
    try {
      const { secretName: _s, ...shown } = before;
      await p.store.delete(name, auditEntryFor(req, tenantId, 'tenant.identity_provider_delete', { type: 'identity_provider', id: name }, { before: { ...shown } }));
    } catch (e) {
      if (listed) await undo([() => p.cognito.updateClientProviders((current) => [...current.filter((x) => x !== name), name])], log);
      throw e;
    }
  }
  await p.cognito.delete(name);
  await p.secrets.delete(secretNameOf(p.settings, tenantId));
  return stateOf(p, tenantId, null, []);
}
