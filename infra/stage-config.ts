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
 *                           stack deletion, deletion protection on the user pool and table (prod only),
 *                           point-in-time recovery, AWS WAF on the API, long log retention, higher
 *                           throttling limits.
 *  - `dev`                → development profile: self sign-up on, everything destroyed with the stack
 *                           (bucket contents via autoDeleteObjects, log groups), `http://localhost:5173`
 *                           allowed as an extra CORS origin so a local portal can call the dev API.
 *  - `pr-<n>` and any other valid name → preview profile: like `dev` but smaller limits, 1-week logs and
 *                           no extra CORS origins. Nothing outlives `cdk destroy`: no Retain policy,
 *                           buckets emptied, log groups deleted, no PITR backups.
 *
 * Per-account values that are not part of the code (alarm e-mail) come from CDK context and are merged
 * with {@link StageOverrides}.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

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
   * (`lambdas/config.ts`: `AVAILABILITY_RETENTION_DAYS` / `O365_EVENT_RETENTION_DAYS`).
   */
  readonly dataRetention: { readonly availabilityDays: number; readonly o365EventDays: number };
  /** E-mail subscribed to the stage's alarm topic (SNS sends a confirmation mail first); none = topic only. */
  readonly alarmEmail?: string;
}

/** Per-deployment values given as CDK context (`-c alarmEmail=ops@example.com`). */
export interface StageOverrides {
  readonly alarmEmail?: string;
}

/** Loose e-mail shape check (SNS validates fully at deploy time). */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
 * @throws InvalidStageError when the name does not match {@link STAGE_PATTERN}; Error on a malformed e-mail
 */
export function stageConfig(stage: string, overrides: StageOverrides = {}): StageConfig {
  if (!STAGE_PATTERN.test(stage)) throw new InvalidStageError(stage);
  const base = baseStageConfig(stage);
  const email = overrides.alarmEmail?.trim();
  if (!email) return base;
  if (!EMAIL_PATTERN.test(email)) throw new Error(`Invalid alarmEmail "${email}" for stage ${stage}`);
  return { ...base, alarmEmail: email };
}

/**
 * What dev and preview stages share: self sign-up, everything destroyed with the stack (bucket contents
 * included), no deletion protection, PITR or WAF, verbose logs and short time-series retention.
 */
function disposableStage(
  stage: string,
  profile: StageProfile,
): Omit<StageConfig, 'throttling' | 'logRetention' | 'accessLogExpirationDays' | 'extraCorsOrigins'> {
  return {
    stage,
    profile,
    selfSignUp: true,
    removalPolicy: RemovalPolicy.DESTROY,
    autoDeleteObjects: true,
    deletionProtection: false,
    logLevel: 'DEBUG',
    pointInTimeRecovery: false,
    waf: false,
    wafRateLimitPer5Min: 1000,
    dataRetention: { availabilityDays: 120, o365EventDays: 30 },
  };
}

function baseStageConfig(stage: string): StageConfig {
  const profile = stageProfile(stage);
  switch (profile) {
    case 'production':
      return {
        stage,
        profile,
        selfSignUp: false,
        removalPolicy: RemovalPolicy.RETAIN,
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
        dataRetention: { availabilityDays: 400, o365EventDays: 180 },
      };
    case 'development':
      return {
        ...disposableStage(stage, profile),
        throttling: { rateLimit: 10, burstLimit: 20 },
        logRetention: RetentionDays.ONE_MONTH,
        accessLogExpirationDays: 30,
        extraCorsOrigins: ['http://localhost:5173'],
      };
    case 'preview':
      return {
        ...disposableStage(stage, profile),
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
