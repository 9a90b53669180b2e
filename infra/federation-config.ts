/**
 * Per-stage federated sign-in settings (docs/platform.md#federated-sign-in): which social identity providers
 * (Google, Facebook, Login with Amazon, Sign in with Apple) and which enterprise providers (a customer's own
 * OIDC or SAML identity provider, e.g. Microsoft Entra ID) a stage's user pool trusts.
 *
 * Given as CDK context `-c identityProviders=<file.json>` (or the JSON itself), validated here with zod
 * ({@link FederationFile}); absent means no federation at all, and the Auth stack is exactly the
 * password-only one (no user pool domain, OAuth disabled on the app client).
 *
 * Rules:
 *  - every enterprise provider is bound to exactly ONE tenant (the Cognito group its users are put in by
 *    the pre token generation trigger, never `admin`) and lists the e-mail domains that route to it
 *    (Cognito's identifier-based routing, `idp_identifier`); a domain belongs to one provider only;
 *  - social providers are bound to no tenant: their users wait in "Cuenta pendiente de aprobación" until
 *    staff put them in a group (docs/api.md#access-requests);
 *  - client secrets and Apple's private key are never in the file: it names an AWS Secrets Manager secret,
 *    which CloudFormation resolves at deploy time (`{{resolve:secretsmanager:…}}`);
 *  - provider names follow Cognito's `ProviderName` rules for OIDC/SAML (1–32 characters; here letters,
 *    digits and `-`, not starting with `Cognito`/`Google`/… reserved names); the social ones use Cognito's
 *    fixed names.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { isReservedTenantId, reservedEmailDomains } from '../lambdas/domain/reserved-names.js';

/** Cognito's fixed provider names of the social identity providers (Amazon Cognito developer guide, "Social IdPs"). */
export const SOCIAL_PROVIDER_NAMES = { google: 'Google', facebook: 'Facebook', amazon: 'LoginWithAmazon', apple: 'SignInWithApple' } as const;
export type SocialProviderType = keyof typeof SOCIAL_PROVIDER_NAMES;
/** Amplify's names of the same providers (`config.json` → `oauth.socialProviders`, `signInWithRedirect({ provider })`). */
export const AMPLIFY_SOCIAL_NAMES = { google: 'Google', facebook: 'Facebook', amazon: 'Amazon', apple: 'Apple' } as const;

const secretName = z.string().regex(/^[A-Za-z0-9/_+=.@-]{1,512}$/, 'a Secrets Manager secret name or ARN');
const tenant = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a tenant id (lower-case slug)').refine((t) => !isReservedTenantId(t), 'an identity provider may never grant the admin group');
const emailDomain = z.string().regex(/^(?=.{3,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'a lower-case e-mail domain such as acme.com');
/** OIDC/SAML provider names: Cognito allows 1–32 characters; reserved prefixes would clash with its own names. */
const providerName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9-]{2,31}$/, '3–32 letters, digits or -, starting with a letter')
  .refine((n) => !/^(cognito|google|facebook|loginwithamazon|signinwithapple)/i.test(n), 'reserved provider name');

const social = z.discriminatedUnion('type', [
  z.object({ type: z.literal('google'), clientId: z.string().min(1), clientSecretName: secretName }).strict(),
  z.object({ type: z.literal('facebook'), clientId: z.string().min(1), clientSecretName: secretName }).strict(),
  z.object({ type: z.literal('amazon'), clientId: z.string().min(1), clientSecretName: secretName }).strict(),
  z.object({
    type: z.literal('apple'),
    /** The Apple services id. */
    clientId: z.string().min(1),
    teamId: z.string().min(1),
    keyId: z.string().min(1),
    /** Secret holding the `.p8` private key text. */
    privateKeySecretName: secretName,
  }).strict(),
]);

const enterpriseCommon = {
  name: providerName,
  tenant,
  emailDomains: z.array(emailDomain).min(1).max(50),
};
const enterprise = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('oidc'),
    ...enterpriseCommon,
    /** e.g. `https://login.microsoftonline.com/<tenant id>/v2.0` (Entra ID). */
    issuerUrl: z.string().url().startsWith('https://'),
    clientId: z.string().min(1),
    clientSecretName: secretName,
  }).strict(),
  z.object({
    type: z.literal('saml'),
    ...enterpriseCommon,
    /** The IdP's federation metadata URL, e.g. Entra ID's App Federation Metadata Url. */
    metadataUrl: z.string().url().startsWith('https://'),
  }).strict(),
]);

/** The file given with `-c identityProviders=…`. */
export const FederationFile = z
  .object({
    /** Prefix of the Cognito domain `<prefix>.auth.<region>.amazoncognito.com`; default `vigia-<stage>`. */
    domainPrefix: z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/).refine((p) => !/aws|amazon|cognito/.test(p), 'Cognito refuses domain prefixes containing aws, amazon or cognito').optional(),
    social: z.array(social).default([]),
    enterprise: z.array(enterprise).default([]),
    /**
     * Staff may also configure a tenant's enterprise provider from the tenant administration screen
     * (docs/api.md#tenant-identity-provider): the admin Lambda then manages Cognito providers and the app client's
     * provider list, the client secrets under `vigia/<stage>/identity-providers/`, and the trigger reads their
     * tenants from the table. Default false (nothing of it in the templates).
     */
    adminConfiguredProviders: z.boolean().default(false),
    /**
     * The staff's e-mail domains (e.g. `vigia.example`): no enterprise provider, of this file or configured by staff,
     * may be routed from them or their subdomains (docs/api.md#reserved-names). Default none.
     */
    staffEmailDomains: z.array(emailDomain).max(20).default([]),
  })
  .strict()
  .superRefine((f, ctx) => {
    const types = f.social.map((s) => s.type);
    if (new Set(types).size !== types.length) ctx.addIssue({ code: 'custom', message: 'each social provider at most once' });
    const names = f.enterprise.map((e) => e.name.toLowerCase());
    if (new Set(names).size !== names.length) ctx.addIssue({ code: 'custom', message: 'enterprise provider names must be unique' });
    const domains = f.enterprise.flatMap((e) => e.emailDomains);
    if (new Set(domains).size !== domains.length) ctx.addIssue({ code: 'custom', message: 'an e-mail domain may route to one provider only' });
    const staff = reservedEmailDomains(domains, f.staffEmailDomains);
    if (staff.length > 0) ctx.addIssue({ code: 'custom', message: `e-mail domain reserved for the staff (staffEmailDomains): ${staff.join(', ')}` });
    if (f.social.length + f.enterprise.length === 0 && !f.adminConfiguredProviders) ctx.addIssue({ code: 'custom', message: 'no provider: leave identityProviders unset instead' });
  });
export type FederationFile = z.infer<typeof FederationFile>;
export type SocialProviderConfig = FederationFile['social'][number];
export type EnterpriseProviderConfig = FederationFile['enterprise'][number];

/** A stage's resolved federation settings (see {@link StageConfig.federation} in stage-config.ts). */
export interface FederationConfig {
  /** Cognito domain prefix (global per region: change it with `domainPrefix` when taken). */
  readonly domainPrefix: string;
  readonly social: readonly SocialProviderConfig[];
  readonly enterprise: readonly EnterpriseProviderConfig[];
  /** Staff configure further enterprise providers at run time (see `FederationFile.adminConfiguredProviders`). */
  readonly adminConfiguredProviders?: boolean;
  /** The staff's e-mail domains, routed to no provider (see `FederationFile.staffEmailDomains`). */
  readonly staffEmailDomains?: readonly string[];
}

/** Secrets Manager name prefix of a stage's staff-configured providers' client secrets (the admin Lambda may use only these names). */
export const idpSecretPrefix = (stage: string): string => `vigia/${stage}/identity-providers/`;

/** OAuth scopes the portal's app client allows and the portal asks for (ID token with e-mail; access token for Cognito's own API). */
export const OAUTH_SCOPES = ['openid', 'email', 'profile', 'aws.cognito.signin.user.admin'] as const;

/**
 * Parses the `identityProviders` context value: a path to a JSON file, or the JSON text itself (starts with `{`).
 * @param stage the stage (for the default domain prefix `vigia-<stage>`)
 * @throws Error naming the first invalid field (zod's message)
 */
export function parseFederation(value: string, stage: string): FederationConfig {
  const text = value.trim().startsWith('{') ? value : readFileSync(value, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`identityProviders: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  const parsed = FederationFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`identityProviders: ${issue.path.join('.') || '(file)'}: ${issue.message}`);
  }
  return {
    domainPrefix: parsed.data.domainPrefix ?? `vigia-${stage}`,
    social: parsed.data.social,
    enterprise: parsed.data.enterprise,
    ...(parsed.data.adminConfiguredProviders ? { adminConfiguredProviders: true } : {}),
    ...(parsed.data.staffEmailDomains.length > 0 ? { staffEmailDomains: parsed.data.staffEmailDomains } : {}),
  };
}

/** Tenant of each enterprise provider by Cognito provider name, e.g. `{ AcmeEntra: 'acme' }` (the trigger's `FEDERATED_TENANTS`). */
export function federatedTenants(federation: Pick<FederationConfig, 'enterprise'>): Record<string, string> {
  return Object.fromEntries(federation.enterprise.map((e) => [e.name, e.tenant]));
}
