/**
 * Typed per-stage configuration of the Vigía CDK app: the one place where `dev`, `staging`, `prod`
 * and `pr-<n>` preview stages differ.
 *
 * Stage names must match {@link STAGE_PATTERN} (`^[a-z][a-z0-9-]{1,20}$`): they become part of every
 * stack name (`Vigia-<stage>-Auth`, …) and every physical resource name (`vigia-<stage>-…`), so several
 * stages (e.g. `pr-42` and `prod`) coexist in one account and region.
 *
 * Profiles:
 *  - `prod`, `staging`    → production profile: self sign-up off (customers are invited), data retained on
 *                           stack deletion and replacement but not after a failed first create
 *                           (`RETAIN_ON_UPDATE_OR_DELETE`, docs/platform.md#retained-resources), deletion
 *                           protection on the user pool and table (prod only), point-in-time recovery, AWS WAF
 *                           on the API, long log retention, higher throttling limits, Cognito e-mail through
 *                           Amazon SES, ingest-silence alarms (prod by default).
 *  - `dev`                → development profile: self sign-up on, everything destroyed with the stack
 *                           (bucket contents via autoDeleteObjects, log groups), `http://localhost:5173`
 *                           allowed as an extra CORS origin so a local portal can call the dev API.
 *  - `pr-<n>` and any other valid name → preview profile: like `dev` but self sign-up off (the preview URL
 *                           is public on the pull request), smaller limits, 1-week logs and no extra CORS
 *                           origins. Nothing outlives `cdk destroy`: no Retain policy, no access-log bucket,
 *                           buckets emptied, every log group with retention and deleted, no PITR backups
 *                           (docs/platform.md#previews-leave-nothing-behind).
 *
 * Per-account values that are not part of the code (alarm e-mail, SES identity, table name of a restore,
 * Cognito threat protection, tenants watched for ingest silence) come from CDK context and are merged with
 * {@link StageOverrides}.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { tableName } from '../lambdas/data/table/table-design.js';
import { type FederationConfig, parseFederation } from './federation-config.js';

/** Valid stage names (lower-case, starts with a letter, 2–21 characters). */
export const STAGE_PATTERN = /^[a-z][a-z0-9-]{1,20}$/;

/** Stage used when no `-c stage=...` is given. */
export const DEFAULT_STAGE = 'dev';

/** Which family of settings a stage uses. */
export type StageProfile = 'production' | 'development' | 'preview';

/** Powertools log levels (`POWERTOOLS_LOG_LEVEL`). */
export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

export interface StageConfig {
  /** The validated stage name, e.g. `dev`, `prod`, `pr-42`. */
  readonly stage: string;
  readonly profile: StageProfile;
  /** Whether visitors may create accounts (Cognito self sign-up; the portal hides "Create Account" when false). */
  readonly selfSignUp: boolean;
  /** Removal policy of stateful resources (user pool, table, buckets, log groups). */
  readonly removalPolicy: RemovalPolicy;
  /** Empty buckets on stack deletion (only when `removalPolicy` is DESTROY). */
  readonly autoDeleteObjects: boolean;
  /** Cognito/DynamoDB deletion protection (prod only). */
  readonly deletionProtection: boolean;
  /** API Gateway stage throttling: steady-state requests per second and burst size (requests). */
  readonly throttling: { readonly rateLimit: number; readonly burstLimit: number };
  /** Retention of Lambda, API access and log-bucket logs. */
  readonly logRetention: RetentionDays;
  /** Days after which S3/CloudFront access-log objects expire. */
  readonly accessLogExpirationDays: number;
  /** CORS origins allowed in addition to the CloudFront site origin, e.g. `http://localhost:5173`. */
  readonly extraCorsOrigins: readonly string[];
  /** Powertools log level of the Lambda functions. */
  readonly logLevel: LogLevel;
  /** DynamoDB point-in-time recovery (continuous backups, 35 days); production profile only. */
  readonly pointInTimeRecovery: boolean;
  /** Attach an AWS WAF web ACL with AWS managed rules to the API stage (billed per ACL and request). */
  readonly waf: boolean;
  /** Requests per 5 minutes from one IP address above which the WAF blocks (only when `waf`). */
  readonly wafRateLimitPer5Min: number;
  /**
   * Retention of time-series data, days, enforced by DynamoDB TTL: daily device availability and Office 365
   * audit events (docs/platform.md#time-series-retention). Passed to the Lambdas through `lambdaEnvironment`
   * (`lambdas/config.ts`: `AVAILABILITY_RETENTION_DAYS` / `O365_EVENT_RETENTION_DAYS` / `AUDIT_RETENTION_DAYS`).
   * `auditDays`: the audit log (docs/api.md#audit-log); production stages keep it at least 400 days.
   */
  readonly dataRetention: { readonly availabilityDays: number; readonly o365EventDays: number; readonly auditDays: number };
  /** E-mail subscribed to the stage's alarm topic (SNS sends a confirmation mail first); none = topic only. */
  readonly alarmEmail?: string;
  /**
   * Physical name of the DynamoDB table: `vigia-<stage>-main` unless overridden (`-c tableName=…`), e.g.
   * to point the stage at a table restored from a point-in-time backup (README "Restore the table").
   * The Data stack, the Lambda environment and the alarms all read this one value.
   */
  readonly tableName: string;
  /**
   * Cognito e-mail through Amazon SES (production profile; docs/platform.md#cognito-e-mail). Absent =
   * Cognito's default sender, whose daily quota only suits dev and previews; a production stage without it
   * fails `cdk synth`/`deploy` with an error annotation.
   */
  readonly email?: CognitoSesEmail;
  /**
   * Cognito threat protection (Plus feature plan, billed per monthly active user): `off` keeps the
   * Essentials plan; `audit` logs risk only; `enforce` blocks risky sign-ins. Production profile only.
   */
  readonly threatProtection: ThreatProtection;
  /** Refresh token rotation grace period, seconds (0–60): how long the replaced refresh token stays valid. */
  readonly refreshTokenRotationGraceSeconds: number;
  /**
   * Ingest-silence alarms: alarm when no heartbeat was accepted for `minutes`, for all tenants together and
   * for each tenant of `tenants` (docs/platform.md#alarms). On by default on `prod`; on `staging` when
   * `silenceTenants`/`silenceMinutes` are given; never on dev and previews. Absent = no such alarm.
   */
  readonly ingestSilence?: { readonly minutes: number; readonly tenants: readonly string[] };
  /** Lambda active tracing (AWS X-Ray, sampled by the Lambda service; no tracing SDK in the bundle). */
  readonly tracing: boolean;
  /**
   * Federated sign-in (`-c identityProviders=<file.json>`, `federation-config.ts`): social and enterprise
   * identity providers, the Cognito domain and the app client's OAuth settings. Absent (the default on every
   * stage) = password sign-in only: no user pool domain, OAuth disabled (docs/platform.md#federated-sign-in).
   */
  readonly federation?: FederationConfig;
}

/** Cognito threat protection level of a stage (see {@link StageConfig.threatProtection}). */
export type ThreatProtection = 'off' | 'audit' | 'enforce';

/**
 * A verified SES identity Cognito sends from (`UserPoolEmail.withSES`). The user pool's
 * `EmailConfiguration.SourceArn` names the identity: the domain's when `verifiedDomain` is set
 * (`arn:aws:ses:<region>:<account>:identity/example.com`), else the address's. Cognito refuses a SourceArn that
 * is not a verified identity (Cognito API reference, EmailConfigurationType `SourceArn`:
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_EmailConfigurationType.html),
 * so an account that verified only the domain (SES developer guide, "Creating a domain identity":
 * https://docs.aws.amazon.com/ses/latest/dg/creating-identities.html#verify-domain-procedure) must say so.
 */
export interface CognitoSesEmail {
  /** From address, e.g. `no-reply@vigia.example`; its address or (with `verifiedDomain`) its domain must be verified in SES. */
  readonly fromEmail: string;
  /**
   * The SES domain identity the address belongs to (`-c sesVerifiedDomain=vigia.example`), lower-case; the
   * address's domain must be exactly this domain (what CDK's `sesVerifiedDomain` accepts). Absent = the address
   * itself is the verified identity.
   */
  readonly verifiedDomain?: string;
  /** Display name of the sender. */
  readonly fromName?: string;
  /** Region of the SES identity (default: the stack's region). */
  readonly sesRegion?: string;
  /** SES configuration set (bounce/complaint events); optional. */
  readonly configurationSet?: string;
}

/**
 * Per-deployment values given as CDK context (`bin/app.ts` maps `-c alarmEmail=…`, `-c sesFromEmail=…`,
 * `-c sesVerifiedDomain=…`, `-c sesRegion=…`, `-c sesConfigurationSet=…`, `-c tableName=…`, `-c threatProtection=…`,
 * `-c silenceTenants=acme,globex`, `-c silenceMinutes=30`, `-c identityProviders=<file.json>`).
 */
export interface StageOverrides {
  readonly alarmEmail?: string;
  readonly email?: CognitoSesEmail;
  readonly tableName?: string;
  readonly threatProtection?: ThreatProtection;
  readonly silenceTenants?: readonly string[];
  readonly silenceMinutes?: number;
  /** Federated sign-in settings: a path to a JSON file or the JSON itself (`federation-config.ts`). */
  readonly identityProviders?: string;
}

/**
 * Reads {@link StageOverrides} from CDK context values (names in the interface's doc); empty values are
 * absent. `silenceMinutes` must be an integer (validated by {@link stageConfig}).
 * @param ctx returns a context value as a string, or undefined when unset or empty
 */
export function stageOverridesFromContext(ctx: (key: string) => string | undefined): StageOverrides {
  const fromEmail = ctx('sesFromEmail');
  const fromName = ctx('sesFromName');
  const verifiedDomain = ctx('sesVerifiedDomain');
  const sesRegion = ctx('sesRegion');
  const configurationSet = ctx('sesConfigurationSet');
  const alarmEmail = ctx('alarmEmail');
  const table = ctx('tableName');
  const threat = ctx('threatProtection');
  const tenants = ctx('silenceTenants');
  const minutes = ctx('silenceMinutes');
  const identityProviders = ctx('identityProviders');
  return {
    ...(identityProviders ? { identityProviders } : {}),
    ...(alarmEmail ? { alarmEmail } : {}),
    ...(table ? { tableName: table } : {}),
    ...(threat ? { threatProtection: threat as ThreatProtection } : {}),
    ...(tenants ? { silenceTenants: tenants.split(',').map((t) => t.trim()).filter(Boolean) } : {}),
    ...(minutes ? { silenceMinutes: Number(minutes) } : {}),
    ...(verifiedDomain && !fromEmail ? { email: { fromEmail: '', verifiedDomain } } : {}),
    ...(fromEmail
      ? {
          email: {
            fromEmail,
            ...(verifiedDomain ? { verifiedDomain } : {}),
            ...(fromName ? { fromName } : {}),
            ...(sesRegion ? { sesRegion } : {}),
            ...(configurationSet ? { configurationSet } : {}),
          },
        }
      : {}),
  };
}

/** Minutes without an accepted heartbeat before the ingest-silence alarm fires (production default). */
export const DEFAULT_SILENCE_MINUTES = 30;
/** DynamoDB table names: 3–255 characters of `[A-Za-z0-9_.-]`. */
const TABLE_NAME_PATTERN = /^[A-Za-z0-9_.-]{3,255}$/;
/** Tenant ids as the API accepts them (lower-case slug). */
const TENANT_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Loose e-mail shape check (SNS validates fully at deploy time). */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A DNS domain name (RFC 1035 labels of 1–63 letters, digits and inner hyphens; at least two labels). */
const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/**
 * Validates and normalises the SES identity of a stage (see {@link CognitoSesEmail}): the from address's shape
 * and, with a verified domain, that the address is in exactly that domain (SES lets a verified domain send from
 * any of its addresses; CDK's `sesVerifiedDomain` requires the address's domain to equal it). Domains are
 * compared and stored lower-case (DNS names are case-insensitive).
 * @throws Error naming the context values (`sesFromEmail`, `sesVerifiedDomain`) on a malformed address or domain,
 *   a domain given without an address, or an address outside the domain
 */
export function validateSesEmail(email: CognitoSesEmail, stage: string): CognitoSesEmail {
  const fromEmail = email.fromEmail.trim();
  if (email.verifiedDomain !== undefined && !fromEmail) {
    throw new Error(`sesVerifiedDomain "${email.verifiedDomain}" for stage ${stage} needs -c sesFromEmail=<address in that domain>`);
  }
  if (!EMAIL_PATTERN.test(fromEmail)) throw new Error(`Invalid sesFromEmail "${fromEmail}" for stage ${stage}`);
  if (email.verifiedDomain === undefined) return { ...email, fromEmail };
  const domain = email.verifiedDomain.trim().toLowerCase();
  if (!DOMAIN_PATTERN.test(domain)) throw new Error(`Invalid sesVerifiedDomain "${email.verifiedDomain}" for stage ${stage}: a domain name such as example.com`);
  const at = fromEmail.lastIndexOf('@');
  const addressDomain = fromEmail.slice(at + 1).toLowerCase();
  if (addressDomain !== domain) {
    throw new Error(
      `sesFromEmail "${fromEmail}" is not in sesVerifiedDomain "${domain}" for stage ${stage}: Cognito sends from the address through the ` +
        `domain's SES identity, so the address must be <name>@${domain} (docs/platform.md#cognito-e-mail)`,
    );
  }
  return { ...email, fromEmail: `${fromEmail.slice(0, at)}@${domain}`, verifiedDomain: domain };
}

/** The SES identity a stage's Cognito e-mail is authorised by: its verified domain, else its from address. */
export function sesIdentity(email: CognitoSesEmail): string {
  return email.verifiedDomain ?? email.fromEmail;
}

/** Raised for a stage name that does not match {@link STAGE_PATTERN}. */
export class InvalidStageError extends Error {
  constructor(stage: string) {
    super(`Invalid stage "${stage}": must match ${STAGE_PATTERN} (e.g. dev, prod, pr-42)`);
    this.name = 'InvalidStageError';
  }
}

/** Returns the profile of a (valid) stage name. */
export function stageProfile(stage: string): StageProfile {
  if (stage === 'prod' || stage === 'staging') return 'production';
  if (stage === 'dev') return 'development';
  return 'preview';
}

/**
 * Builds the configuration of a stage.
 * @param stage stage name from the `stage` context value
 * @param overrides per-deployment values from CDK context (alarm e-mail)
 * @throws InvalidStageError when the name does not match {@link STAGE_PATTERN}; Error on a malformed e-mail or an
 *   SES from address outside its verified domain ({@link validateSesEmail})
 */
export function stageConfig(stage: string, overrides: StageOverrides = {}): StageConfig {
  if (!STAGE_PATTERN.test(stage)) throw new InvalidStageError(stage);
  let config = baseStageConfig(stage);
  const alarmEmail = overrides.alarmEmail?.trim();
  if (alarmEmail) {
    if (!EMAIL_PATTERN.test(alarmEmail)) throw new Error(`Invalid alarmEmail "${alarmEmail}" for stage ${stage}`);
    config = { ...config, alarmEmail };
  }
  if (overrides.tableName !== undefined) {
    if (!TABLE_NAME_PATTERN.test(overrides.tableName)) throw new Error(`Invalid tableName "${overrides.tableName}" for stage ${stage}`);
    config = { ...config, tableName: overrides.tableName };
  }
  if (overrides.email) config = { ...config, email: validateSesEmail(overrides.email, stage) };
  const production = config.profile === 'production';
  if (overrides.threatProtection !== undefined && overrides.threatProtection !== 'off') {
    if (!production) throw new Error(`threatProtection is a production-stage setting (stage ${stage})`);
    if (!['audit', 'enforce'].includes(overrides.threatProtection)) {
      throw new Error(`Invalid threatProtection "${overrides.threatProtection}": off, audit or enforce`);
    }
    config = { ...config, threatProtection: overrides.threatProtection };
  }
  if (production && (overrides.silenceTenants !== undefined || overrides.silenceMinutes !== undefined)) {
    const tenants = overrides.silenceTenants ?? config.ingestSilence?.tenants ?? [];
    const bad = tenants.find((t) => !TENANT_PATTERN.test(t));
    if (bad !== undefined) throw new Error(`Invalid tenant "${bad}" in silenceTenants`);
    const minutes = overrides.silenceMinutes ?? DEFAULT_SILENCE_MINUTES;
    if (!Number.isInteger(minutes) || minutes < 5 || minutes > 1440) throw new Error(`silenceMinutes must be an integer 5–1440, got ${minutes}`);
    config = { ...config, ingestSilence: { minutes, tenants: [...new Set(tenants)] } };
  }
  if (overrides.identityProviders !== undefined) config = { ...config, federation: parseFederation(overrides.identityProviders, stage) };
  return config;
}

/**
 * What dev and preview stages share: self sign-up, everything destroyed with the stack (bucket contents
 * included), no deletion protection, PITR or WAF, verbose logs and short time-series retention.
 */
function disposableStage(
  stage: string,
  profile: StageProfile,
): Omit<StageConfig, 'selfSignUp' | 'throttling' | 'logRetention' | 'accessLogExpirationDays' | 'extraCorsOrigins'> {
  return {
    stage,
    profile,
    removalPolicy: RemovalPolicy.DESTROY,
    autoDeleteObjects: true,
    deletionProtection: false,
    logLevel: 'DEBUG',
    pointInTimeRecovery: false,
    waf: false,
    wafRateLimitPer5Min: 1000,
    dataRetention: { availabilityDays: 120, o365EventDays: 30, auditDays: 30 },
    tableName: tableName(stage),
    threatProtection: 'off',
    refreshTokenRotationGraceSeconds: REFRESH_TOKEN_GRACE_SECONDS,
    tracing: true,
  };
}

/** Grace period of a rotated refresh token, seconds: covers a retried refresh after a dropped response. */
export const REFRESH_TOKEN_GRACE_SECONDS = 10;

function baseStageConfig(stage: string): StageConfig {
  const profile = stageProfile(stage);
  switch (profile) {
    case 'production':
      return {
        stage,
        profile,
        selfSignUp: false,
        // Kept on stack deletion and replacement, deleted when the create that made it rolls back, so a
        // failed first deploy can be retried (docs/platform.md#retained-resources).
        removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
        autoDeleteObjects: false,
        deletionProtection: stage === 'prod',
        throttling: stage === 'prod' ? { rateLimit: 50, burstLimit: 100 } : { rateLimit: 20, burstLimit: 40 },
        logRetention: stage === 'prod' ? RetentionDays.ONE_YEAR : RetentionDays.THREE_MONTHS,
        accessLogExpirationDays: stage === 'prod' ? 365 : 90,
        extraCorsOrigins: [],
        logLevel: 'INFO',
        pointInTimeRecovery: true,
        waf: true,
        wafRateLimitPer5Min: stage === 'prod' ? 2000 : 1000,
        dataRetention: { availabilityDays: 400, o365EventDays: 180, auditDays: 400 },
        tableName: tableName(stage),
        threatProtection: 'off',
        refreshTokenRotationGraceSeconds: REFRESH_TOKEN_GRACE_SECONDS,
        // prod watches its collectors by default; staging only when given silenceTenants/silenceMinutes
        // (it may have no collectors, and missing heartbeats count as breaching).
        ...(stage === 'prod' ? { ingestSilence: { minutes: DEFAULT_SILENCE_MINUTES, tenants: [] } } : {}),
        tracing: true,
      };
    case 'development':
      return {
        ...disposableStage(stage, profile),
        selfSignUp: true,
        throttling: { rateLimit: 10, burstLimit: 20 },
        logRetention: RetentionDays.ONE_MONTH,
        accessLogExpirationDays: 30,
        extraCorsOrigins: ['http://localhost:5173'],
      };
    case 'preview':
      return {
        ...disposableStage(stage, profile),
        // The preview's URL is posted publicly on the pull request: users are admin-created only.
        selfSignUp: false,
        throttling: { rateLimit: 5, burstLimit: 10 },
        logRetention: RetentionDays.ONE_WEEK,
        accessLogExpirationDays: 7,
        extraCorsOrigins: [],
      };
  }
}

/** Physical name of a stage-scoped resource: `vigia-<stage>-<suffix>` (e.g. `vigia-pr-42-users`). */
export function physicalName(stage: string, suffix: string): string {
  return `vigia-${stage}-${suffix}`;
}

/** CloudFormation stack name: `Vigia-<stage>-<part>` (e.g. `Vigia-prod-Api`). */
export function stackName(stage: string, part: string): string {
  return `Vigia-${stage}-${part}`;
}
