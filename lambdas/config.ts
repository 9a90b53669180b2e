/**
 * The API Lambdas' configuration: one zod-parsed object, built once per container from the function's
 * environment (in AWS) or directly by the local stack and the tests, then handed to the handlers.
 *
 * - The CDK Api stack builds every function's `environment` with {@link lambdaEnvironment} from the same
 *   object shape, so the variable names are spelled in this file only.
 * - Nothing reads `process.env` at import time: a handler module reads it on its first invocation
 *   ({@link lambdaConfigFromEnv}); the local stack and the tests call {@link parseLambdaConfig} and pass the
 *   result to a handler module's `createHandler(config, deps)` (docs/api.md#configuration), never mutating
 *   `process.env`.
 *
 * Errors: {@link parseLambdaConfig} / {@link lambdaConfigFromEnv} throw `LambdaConfigError` (a deployment
 * mistake: the function cannot serve requests without its table name or stage).
 */
import * as z from 'zod';
import { FEDERATED_TENANTS_ENV, FEDERATED_TENANTS_FROM_TABLE_ENV, parseFederatedTenants, type FederatedTenants } from './triggers/federation.js';

/**
 * Request headers the portal and collectors send that CORS pre-flights must allow (API Gateway's
 * `defaultCorsPreflightOptions`, the Lambdas' CORS middleware and the local gateway use this one list).
 * `X-Amz-Date` / `X-Amz-Security-Token` / `X-Amz-Content-Sha256` belong to SigV4-signed collector calls.
 */
export const CORS_ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-None-Match',
  'X-Amz-Date',
  'X-Amz-Security-Token',
  'X-Amz-Content-Sha256',
] as const;

/** Days kept before DynamoDB TTL removes a time-series item; an integer in 1–3650. */
const RetentionDays = z.coerce.number().int().min(1).max(3650);

/** The configuration object every API Lambda receives. */
export const LambdaConfig = z.object({
  /** Stage name (`prod`, `dev`, `pr-42`, `local`). */
  stage: z.string().min(1),
  /** Physical name of the single DynamoDB table (`vigia-<stage>-main`). */
  tableName: z.string().min(1),
  /** AWS region of the table (Lambda sets `AWS_REGION`). */
  region: z.string().min(1),
  /** DynamoDB endpoint override (local engine); absent in AWS = the regional endpoint. */
  dynamodbEndpoint: z.url().optional(),
  /** Origins whose browser requests get CORS headers (the site first, then the stage's extra origins). */
  allowedOrigins: z.array(z.string().min(1)).default([]),
  /**
   * App client ids whose ID tokens the API accepts (the token's `aud`): the portal's app client. API
   * Gateway's Cognito authorizer accepts a token of any app client of the pool; the Lambdas refuse the
   * others with 401 (docs/api.md#identity). Empty = not checked (only where no user pool is involved,
   * such as tests that call the handlers directly).
   */
  userPoolClientIds: z.array(z.string().min(1)).default([]),
  /** Id of the Cognito user pool the `admin` Lambda administers (absent: no user administration). */
  userPoolId: z.string().min(1).optional(),
  /** Cognito endpoint override (the local user pool); absent in AWS = the regional endpoint. */
  cognitoEndpoint: z.url().optional(),
  /**
   * Staff-configured enterprise identity providers (admin Lambda; docs/api.md#tenant-identity-provider): present only
   * on a stage whose providers file sets `adminConfiguredProviders` (it has a Cognito domain). `secretPrefix` is
   * the Secrets Manager name prefix of the stage (`vigia/<stage>/identity-providers/`), `oauthDomain` the host of
   * the user pool's OAuth endpoints (the redirect URL staff register at the customer's provider),
   * `staffEmailDomains` the staff's e-mail domains no provider may be routed from (the providers file's
   * `staffEmailDomains`; docs/api.md#reserved-names).
   */
  identityProviders: z
    .object({ secretPrefix: z.string().min(1), oauthDomain: z.string().min(1), staffEmailDomains: z.array(z.string().min(1)).default([]) })
    .optional(),
  /**
   * The enterprise providers of the stage's providers file (`-c identityProviders=…`, infra/federation-config.ts),
   * bound at deploy time, each with its tenant and the e-mail domains Cognito routes to it (admin Lambda only;
   * docs/api.md#tenant-identity-provider): shown read-only on their tenant's identity provider card, since they
   * route the tenant's users as much as a provider staff configure. Default none.
   */
  stageProviders: z
    .array(z.object({ name: z.string().min(1), type: z.enum(['oidc', 'saml']), tenant: z.string().min(1), emailDomains: z.array(z.string().min(1)) }))
    .default([]),
  /** Secrets Manager endpoint override (the local Secrets Manager); absent in AWS = the regional endpoint. */
  secretsManagerEndpoint: z.url().optional(),
  /**
   * The attachments bucket (incidents Lambda; docs/api.md#attachments): its name (`vigia-<stage>-attachments-<account>-<region>`,
   * infra/attachments-bucket.ts) and an S3 endpoint override (the local S3, path-style); absent = no attachments
   * (the attachment routes answer 500).
   */
  attachments: z.object({ bucket: z.string().min(1), s3Endpoint: z.url().optional() }).optional(),
  /** Request headers allowed by CORS pre-flights. */
  allowedHeaders: z.array(z.string().min(1)).default([...CORS_ALLOW_HEADERS]),
  /** Retention (TTL) of time-series items, days. Defaults: availability 400, Office 365 events 90. */
  retention: z
    .object({
      availabilityDays: RetentionDays.default(400),
      o365EventDays: RetentionDays.default(90),
      /** Audit log entries (docs/api.md#audit-log); production stages keep at least 400. */
      auditDays: RetentionDays.default(400),
    })
    .default({ availabilityDays: 400, o365EventDays: 90, auditDays: 400 }),
  /**
   * Notification delivery (docs/notifications.md#delivery): the portal origin e-mails and webhooks link to,
   * the SES identity e-mail is sent from (none = no e-mail, webhooks only), its region, an SES endpoint
   * override (the local emulator), an optional configuration set, and whether `http://localhost` webhooks
   * are allowed and the public-address check skipped (local stack and tests only, never in AWS).
   */
  notifications: z
    .object({
      siteUrl: z.url().optional(),
      emailFrom: z.string().min(3).optional(),
      sesRegion: z.string().min(1).optional(),
      sesEndpoint: z.url().optional(),
      sesConfigurationSet: z.string().min(1).optional(),
      allowLocalWebhooks: z.boolean().default(false),
    })
    .default({ allowLocalWebhooks: false }),
  /** Powertools service name and log level. */
  serviceName: z.string().min(1).default('vigia-api'),
  logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT', 'CRITICAL']).default('INFO'),
});
export type LambdaConfig = z.output<typeof LambdaConfig>;
export type LambdaConfigInput = z.input<typeof LambdaConfig>;

/** Raised for a missing or malformed setting (message names every field at fault). */
export class LambdaConfigError extends Error {
  constructor(issues: readonly z.core.$ZodIssue[]) {
    super(`invalid Lambda configuration: ${issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
    this.name = 'LambdaConfigError';
  }
}

/** Validates a configuration object (fills defaults). @throws LambdaConfigError */
export function parseLambdaConfig(input: LambdaConfigInput): LambdaConfig {
  const r = LambdaConfig.safeParse(input);
  if (!r.success) throw new LambdaConfigError(r.error.issues);
  return r.data;
}

/** Environment variable names, one per setting (the only place they are spelled). */
const ENV = {
  stage: 'STAGE',
  tableName: 'TABLE_NAME',
  dynamodbEndpoint: 'AWS_ENDPOINT_URL_DYNAMODB',
  allowedOrigins: 'ALLOWED_ORIGINS',
  allowedHeaders: 'ALLOWED_HEADERS',
  userPoolClientIds: 'USER_POOL_CLIENT_IDS',
  userPoolId: 'USER_POOL_ID',
  cognitoEndpoint: 'AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER',
  idpSecretPrefix: 'IDP_SECRET_PREFIX',
  idpOAuthDomain: 'IDP_OAUTH_DOMAIN',
  idpStaffEmailDomains: 'IDP_STAFF_EMAIL_DOMAINS',
  /** JSON array of `stageProviders` (a few hundred bytes per provider, inside Lambda's 4 KB of environment). */
  idpStageProviders: 'IDP_STAGE_PROVIDERS',
  secretsManagerEndpoint: 'AWS_ENDPOINT_URL_SECRETS_MANAGER',
  attachmentsBucket: 'ATTACHMENTS_BUCKET',
  s3Endpoint: 'AWS_ENDPOINT_URL_S3',
  availabilityDays: 'AVAILABILITY_RETENTION_DAYS',
  o365EventDays: 'O365_EVENT_RETENTION_DAYS',
  auditDays: 'AUDIT_RETENTION_DAYS',
  siteUrl: 'SITE_URL',
  emailFrom: 'NOTIFY_EMAIL_FROM',
  sesRegion: 'SES_REGION',
  sesEndpoint: 'AWS_ENDPOINT_URL_SESV2',
  sesConfigurationSet: 'SES_CONFIGURATION_SET',
  allowLocalWebhooks: 'WEBHOOKS_ALLOW_LOCAL_HTTP',
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  logLevel: 'POWERTOOLS_LOG_LEVEL',
} as const;

/** A JSON variable's value; text that is not JSON is returned as it is, so the schema names the variable's field. */
const json = (v: string | undefined): unknown => {
  if (v === undefined || v === '') return undefined;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
};

const list = (v: string | undefined): string[] | undefined =>
  v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean);

/**
 * The configuration from a Lambda environment (`process.env` on the first invocation). `AWS_REGION` is
 * set by the Lambda runtime; the rest by {@link lambdaEnvironment}. @throws LambdaConfigError
 */
export function lambdaConfigFromEnv(env: Record<string, string | undefined>): LambdaConfig {
  const pick = <T>(v: T | undefined) => (v === undefined || v === '' ? undefined : v);
  return parseLambdaConfig({
    stage: env[ENV.stage] ?? '',
    tableName: env[ENV.tableName] ?? '',
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? '',
    dynamodbEndpoint: pick(env[ENV.dynamodbEndpoint]),
    allowedOrigins: list(env[ENV.allowedOrigins]),
    allowedHeaders: list(pick(env[ENV.allowedHeaders])),
    userPoolClientIds: list(env[ENV.userPoolClientIds]),
    userPoolId: pick(env[ENV.userPoolId]),
    cognitoEndpoint: pick(env[ENV.cognitoEndpoint]),
    identityProviders:
      pick(env[ENV.idpSecretPrefix]) && pick(env[ENV.idpOAuthDomain])
        ? { secretPrefix: env[ENV.idpSecretPrefix]!, oauthDomain: env[ENV.idpOAuthDomain]!, staffEmailDomains: list(env[ENV.idpStaffEmailDomains]) }
        : undefined,
    stageProviders: json(env[ENV.idpStageProviders]) as LambdaConfigInput['stageProviders'],
    secretsManagerEndpoint: pick(env[ENV.secretsManagerEndpoint]),
    attachments: pick(env[ENV.attachmentsBucket]) ? { bucket: env[ENV.attachmentsBucket]!, s3Endpoint: pick(env[ENV.s3Endpoint]) } : undefined,
    retention: {
      availabilityDays: pick(env[ENV.availabilityDays]) as unknown as number | undefined,
      o365EventDays: pick(env[ENV.o365EventDays]) as unknown as number | undefined,
      auditDays: pick(env[ENV.auditDays]) as unknown as number | undefined,
    },
    notifications: {
      siteUrl: pick(env[ENV.siteUrl]),
      emailFrom: pick(env[ENV.emailFrom]),
      sesRegion: pick(env[ENV.sesRegion]),
      sesEndpoint: pick(env[ENV.sesEndpoint]),
      sesConfigurationSet: pick(env[ENV.sesConfigurationSet]),
      allowLocalWebhooks: env[ENV.allowLocalWebhooks] === 'true',
    },
    serviceName: pick(env[ENV.serviceName]),
    logLevel: pick(env[ENV.logLevel]) as LambdaConfig['logLevel'] | undefined,
  });
}

/**
 * The Lambda `environment` for a configuration (CDK Api stack). `region` is omitted (the runtime sets
 * `AWS_REGION`, a reserved variable) and so is `dynamodbEndpoint` unless given. Values may be CDK tokens
 * (strings) because they are copied as they are.
 */
export function lambdaEnvironment(config: Omit<LambdaConfigInput, 'region'>): Record<string, string> {
  const c = { ...config };
  const out: Record<string, string> = {
    [ENV.stage]: c.stage,
    [ENV.tableName]: c.tableName,
    [ENV.allowedOrigins]: (c.allowedOrigins ?? []).join(','),
    [ENV.allowedHeaders]: (c.allowedHeaders ?? [...CORS_ALLOW_HEADERS]).join(','),
    [ENV.userPoolClientIds]: (c.userPoolClientIds ?? []).join(','),
    [ENV.serviceName]: c.serviceName ?? 'vigia-api',
    [ENV.logLevel]: c.logLevel ?? 'INFO',
  };
  if (c.retention?.availabilityDays !== undefined) out[ENV.availabilityDays] = String(c.retention.availabilityDays);
  if (c.retention?.o365EventDays !== undefined) out[ENV.o365EventDays] = String(c.retention.o365EventDays);
  if (c.retention?.auditDays !== undefined) out[ENV.auditDays] = String(c.retention.auditDays);
  if (c.dynamodbEndpoint !== undefined) out[ENV.dynamodbEndpoint] = c.dynamodbEndpoint;
  if (c.userPoolId !== undefined) out[ENV.userPoolId] = c.userPoolId;
  if (c.cognitoEndpoint !== undefined) out[ENV.cognitoEndpoint] = c.cognitoEndpoint;
  const n = c.notifications;
  if (n?.siteUrl !== undefined) out[ENV.siteUrl] = n.siteUrl;
  if (n?.emailFrom !== undefined) out[ENV.emailFrom] = n.emailFrom;
  if (n?.sesRegion !== undefined) out[ENV.sesRegion] = n.sesRegion;
  if (n?.sesEndpoint !== undefined) out[ENV.sesEndpoint] = n.sesEndpoint;
  if (n?.sesConfigurationSet !== undefined) out[ENV.sesConfigurationSet] = n.sesConfigurationSet;
  if (n?.allowLocalWebhooks) out[ENV.allowLocalWebhooks] = 'true';
  if (c.identityProviders !== undefined) {
    out[ENV.idpSecretPrefix] = c.identityProviders.secretPrefix;
    out[ENV.idpOAuthDomain] = c.identityProviders.oauthDomain;
    if (c.identityProviders.staffEmailDomains?.length) out[ENV.idpStaffEmailDomains] = c.identityProviders.staffEmailDomains.join(',');
  }
  if (c.stageProviders?.length) out[ENV.idpStageProviders] = JSON.stringify(c.stageProviders);
  if (c.secretsManagerEndpoint !== undefined) out[ENV.secretsManagerEndpoint] = c.secretsManagerEndpoint;
  if (c.attachments !== undefined) {
    out[ENV.attachmentsBucket] = c.attachments.bucket;
    if (c.attachments.s3Endpoint !== undefined) out[ENV.s3Endpoint] = c.attachments.s3Endpoint;
  }
  return out;
}

/**
 * The Cognito pre token generation trigger's configuration (`lambdas/triggers/pre-token-generation.ts`): a
 * smaller shape than the API Lambdas' (the trigger serves Cognito, not the API), read from the function's
 * environment by {@link preTokenTriggerConfigFromEnv} on its first invocation and written by
 * infra/pre-token-trigger.ts through {@link preTokenTriggerEnvironment}, so its variable names are spelled here
 * and in `triggers/federation.ts` only (`TABLE_NAME` is the API Lambdas' same setting).
 */
export interface PreTokenTriggerConfig {
  /** AWS region of the function (the runtime's `AWS_REGION`); '' outside Lambda (the SDK's default chain then). */
  readonly region: string;
  /** The stage's table: access requests are recorded there and staff-configured providers read; absent = neither. */
  readonly tableName?: string;
  /** The providers file's enterprise providers, provider name → tenant id; `{}` = none (docs/platform.md#federated-sign-in). */
  readonly federatedTenants: FederatedTenants;
  /**
   * Staff may configure providers at run time: the tenant of a provider the file does not name is read from the
   * table (docs/api.md#tenant-identity-provider). Ignored without `tableName`.
   */
  readonly federatedTenantsFromTable: boolean;
}

/**
 * The trigger's configuration from its environment. Empty or absent variables mean "not set".
 * @throws SyntaxError when `FEDERATED_TENANTS` is not a JSON object (a deployment error; `parseFederatedTenants`)
 */
export function preTokenTriggerConfigFromEnv(env: Record<string, string | undefined>): PreTokenTriggerConfig {
  const tableName = env[ENV.tableName] || undefined;
  return {
    region: env.AWS_REGION ?? '',
    ...(tableName ? { tableName } : {}),
    federatedTenants: parseFederatedTenants(env[FEDERATED_TENANTS_ENV]),
    federatedTenantsFromTable: env[FEDERATED_TENANTS_FROM_TABLE_ENV] === 'true',
  };
}

/**
 * The trigger's `environment` entries for the settings given (CDK values may be tokens). `region` is the
 * runtime's own; an empty provider map and `federatedTenantsFromTable: false` add nothing.
 */
export function preTokenTriggerEnvironment(config: Partial<Omit<PreTokenTriggerConfig, 'region'>>): Record<string, string> {
  const out: Record<string, string> = {};
  if (config.tableName !== undefined) out[ENV.tableName] = config.tableName;
  if (config.federatedTenants && Object.keys(config.federatedTenants).length > 0) out[FEDERATED_TENANTS_ENV] = JSON.stringify(config.federatedTenants);
  if (config.federatedTenantsFromTable) out[FEDERATED_TENANTS_FROM_TABLE_ENV] = 'true';
  return out;
}
