/**
 * Settings of the local stack in one place: the stage name, region and dummy AWS credentials every local
 * client uses, the default ports and state folder of `npm start`, the local collector access key, and the
 * two builders the rest of `scripts/local` shares (`localTable`, `localLambdaConfig`).
 *
 * Only {@link localSettingsFromEnv} looks at environment variables, and only when `npm start` (the CLI)
 * passes it `process.env`; the library (`./stack.ts`) takes everything as arguments. Nothing here
 * imports another `scripts/local` module, so any of them can import it without a cycle.
 *
 * See docs/local-emulation.md for what each local component stands in for.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLambdaConfig, type LambdaConfig, type LambdaConfigInput } from '../../lambdas/config.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/index.js';

/** The repository's root folder (absolute). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Stage name of the local stack (`vigia-local-main` table, `requestContext.stage`). */
export const LOCAL_STAGE = 'local';

/** Region used by every local client (any value works offline; it must just be consistent). */
export const DEMO_REGION = 'us-east-1';

/**
 * Dummy AWS credentials for the local DynamoDB engine (dynoxide ignores SigV4). The local user pool's
 * administrative operations need {@link LOCAL_OPERATOR_CREDENTIAL} instead.
 */
export const LOCAL_AWS_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/**
 * Default ports of `npm start` (each overridable; 0 = any free port). `dynamodb` is the DynamoDB rules layer
 * every client uses, `dynamodbInternal` the engine behind it (loopback; docs/local-emulation.md#dynamodb).
 */
export const DEFAULT_PORTS = { dynamodb: 8000, dynamodbInternal: 8001, cognito: 9229, cognitoInternal: 9230, cognitoOAuth: 9231, idp: 9240, api: 3001, web: 5173, mail: 8005, s3: 4569 } as const;
export type Ports = { -readonly [K in keyof typeof DEFAULT_PORTS]: number };

/** Environment variable naming each port (read by `npm start` only). */
export const PORT_VARIABLES: Record<keyof Ports, string> = {
  web: 'VIGIA_PORT_WEB',
  api: 'VIGIA_PORT_API',
  cognito: 'VIGIA_PORT_COGNITO',
  cognitoInternal: 'VIGIA_PORT_COGNITO_INTERNAL',
  cognitoOAuth: 'VIGIA_PORT_COGNITO_OAUTH',
  idp: 'VIGIA_PORT_IDP',
  mail: 'VIGIA_PORT_MAIL',
  s3: 'VIGIA_PORT_S3',
  dynamodb: 'VIGIA_PORT_DYNAMODB',
  dynamodbInternal: 'VIGIA_PORT_DYNAMODB_INTERNAL',
};

/**
 * The local stand-in of a customer's own identity provider (docs/local-emulation.md#federated-sign-in): an
 * OpenID provider (`scripts/local/idp.ts`) that the local user pool trusts as `AcmeIdP`, bound to tenant `acme`
 * and routed from the e-mail domain `acme.example`, as a stage's `identityProviders` file binds a customer's
 * Entra ID (`infra/federation-config.ts`). Its one user, Carla, exists only there: the pool creates
 * `AcmeIdP_<sub>` at her first sign-in. The password is the demo one (local only).
 */
export const LOCAL_IDENTITY_PROVIDER = {
  name: 'AcmeIdP',
  tenant: 'acme',
  emailDomains: ['acme.example'],
  organisation: 'Acme Logística',
  users: [{ sub: 'carla-acme-0001', email: 'carla@acme.example', name: 'Carla Ruiz', password: 'Vigia-Demo-2026' }],
} as const;

/** Default state folder of `npm start` (git-ignored): DynamoDB file, user pool, devices, codes, logs. */
export const DEFAULT_DATA_DIR = path.join(REPO_ROOT, '.local');

/** An access key the local gateway accepts on the collector (IAM-authorised) routes. */
export interface CollectorCredential {
  accessKeyId: string;
  secretAccessKey: string;
  /** The principal the handlers see (`requestContext.identity.userArn`). */
  userArn: string;
}

/**
 * The local stack's collector access key (not a secret: it only opens the local ingest routes). It calls
 * as a session of the role `vigia-local-collector`, as a collector on an AWS role does; the seed grants
 * that role every demo tenant (docs/api.md#collectors-and-tenants).
 */
export const LOCAL_COLLECTOR_CREDENTIAL: CollectorCredential = {
  accessKeyId: 'AKIAVIGIALOCALCOLLECT',
  secretAccessKey: 'vigia-local-collector-secret-key-not-for-aws',
  userArn: 'arn:aws:sts::000000000000:assumed-role/vigia-local-collector/local',
};

/**
 * A second local collector key, of the role `vigia-local-collector-acme`, which the seed grants the
 * tenant `acme` only: the tests of tenant-scoped collectors use it (403 on any other tenant).
 */
export const LOCAL_ACME_COLLECTOR_CREDENTIAL: CollectorCredential = {
  accessKeyId: 'AKIAVIGIALOCALACME',
  secretAccessKey: 'vigia-local-acme-collector-secret-not-for-aws',
  userArn: 'arn:aws:sts::000000000000:assumed-role/vigia-local-collector-acme/local',
};

/** The tenants the seed grants to each local collector key's principal (docs/api.md#collectors-and-tenants). */
export const LOCAL_COLLECTOR_GRANTS: ReadonlyArray<{ credential: CollectorCredential; tenants: readonly string[] | 'all-demo' }> = [
  { credential: LOCAL_COLLECTOR_CREDENTIAL, tenants: 'all-demo' },
  { credential: LOCAL_ACME_COLLECTOR_CREDENTIAL, tenants: ['acme'] },
];

/**
 * The local user pool's operator access key: the IAM-authorised (administrative) operations of the local
 * pool (`Admin*`, `CreateGroup`, `ListUsers`…) must be SigV4-signed with it, as the deployed pool requires
 * the IAM credentials of an operator. The seed, the operator scripts run with `--local` and the tests give
 * it to their `CognitoIdentityProviderClient`. Not a secret: it only opens the local pool.
 * See docs/local-emulation.md#administrative-operations.
 */
export const LOCAL_OPERATOR_CREDENTIAL: CollectorCredential = {
  accessKeyId: 'AKIAVIGIALOCALOPERATOR',
  secretAccessKey: 'vigia-local-operator-secret-key-not-for-aws',
  userArn: 'arn:aws:iam::000000000000:user/vigia-local-operator',
};

/** Powertools log level of the handlers in the local stack unless told otherwise (quiet terminal). */
export const LOCAL_LOG_LEVEL: LambdaConfig['logLevel'] = 'WARN';

/** A table reference on the local engine (dummy credentials, {@link DEMO_REGION}). */
export function localTable(endpoint: string, tableName: string): TableRef {
  return { doc: createDocumentClient({ endpoint, region: DEMO_REGION, credentials: { ...LOCAL_AWS_CREDENTIALS } }), tableName };
}

/**
 * The local staff's e-mail domain (the demo staff are `@vigia.example`): reserved as a stage's providers file
 * reserves its `staffEmailDomains`, so no provider a staff member sets up locally may be routed from it
 * (docs/api.md#reserved-names).
 */
export const LOCAL_STAFF_EMAIL_DOMAINS = ['vigia.example'] as const;

/**
 * The Lambda configuration of the local stack: stage `local`, {@link DEMO_REGION}, the local engine as
 * DynamoDB endpoint, the portal's origins for CORS, the local portal app client as the accepted `aud`,
 * default retention.
 * @throws LambdaConfigError (lambdas/config.ts) on an empty table name or a malformed endpoint.
 */
export function localLambdaConfig(input: {
  tableName: string;
  dynamodbEndpoint: string;
  allowedOrigins: string[];
  /** The local portal app client id (the `aud` the handlers accept, as in AWS). */
  userPoolClientId?: string;
  /** The local user pool the admin Lambda administers, and its endpoint. */
  userPoolId?: string;
  cognitoEndpoint?: string;
  logLevel?: LambdaConfig['logLevel'];
  /** Notification delivery: portal origin, SES emulator endpoint and sender, localhost webhooks allowed (scripts/local/notifications.ts). */
  notifications?: { siteUrl: string; sesEndpoint: string; emailFrom: string };
  /** Staff-configured identity providers (a federated local stack): the hosted domain and the local Secrets Manager. */
  identityProviders?: { oauthDomain: string; secretsManagerEndpoint: string };
  /** The local stand-in of a providers file's enterprise provider (LOCAL_IDENTITY_PROVIDER), when the stack federates. */
  stageProviders?: LambdaConfigInput['stageProviders'];
  /** The attachments bucket on the local S3 and its endpoint (scripts/local/s3.ts). */
  attachments?: { bucket: string; s3Endpoint: string };
}): LambdaConfig {
  return parseLambdaConfig({
    stage: LOCAL_STAGE,
    region: DEMO_REGION,
    tableName: input.tableName,
    dynamodbEndpoint: input.dynamodbEndpoint,
    allowedOrigins: input.allowedOrigins,
    userPoolClientIds: input.userPoolClientId ? [input.userPoolClientId] : [],
    ...(input.userPoolId ? { userPoolId: input.userPoolId } : {}),
    ...(input.cognitoEndpoint ? { cognitoEndpoint: input.cognitoEndpoint } : {}),
    ...(input.identityProviders
      ? {
          identityProviders: { secretPrefix: `vigia/${LOCAL_STAGE}/identity-providers/`, oauthDomain: input.identityProviders.oauthDomain, staffEmailDomains: [...LOCAL_STAFF_EMAIL_DOMAINS] },
          secretsManagerEndpoint: input.identityProviders.secretsManagerEndpoint,
        }
      : {}),
    ...(input.stageProviders ? { stageProviders: input.stageProviders } : {}),
    ...(input.attachments ? { attachments: input.attachments } : {}),
    // The local stack always allows http://localhost webhooks (a local receiver), with or without the mail emulator.
    notifications: { ...(input.notifications ?? {}), allowLocalWebhooks: true },
    logLevel: input.logLevel ?? LOCAL_LOG_LEVEL,
  });
}

/** What `npm start` reads from its environment (see {@link localSettingsFromEnv}). */
export interface LocalEnvSettings {
  ports: Ports;
  /** Absolute state folder. */
  dataDir: string;
  /** False when `VIGIA_COLLECTOR=0`. */
  collector: boolean;
  collectorCredential: CollectorCredential;
  /** `POWERTOOLS_LOG_LEVEL` when set to a valid level, else {@link LOCAL_LOG_LEVEL}. */
  logLevel: LambdaConfig['logLevel'];
  /** `VIGIA_DEBUG` set: print stack traces of start-up errors. */
  debug: boolean;
}

/** A setting in the environment that cannot be used; `message` names the variable and the value. */
export class LocalSettingError extends Error {
  override name = 'LocalSettingError';
}

const LOG_LEVELS: ReadonlyArray<LambdaConfig['logLevel']> = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT', 'CRITICAL'];

/**
 * `npm start`'s settings from environment variables (a pure function of `env`):
 * `VIGIA_PORT_*` (integers 0–65535; 0 = any free port; `VIGIA_PORT_DYNAMODB` other than 8000 without
 * `VIGIA_PORT_DYNAMODB_INTERNAL` puts the engine on a free port), `VIGIA_DATA_DIR` (resolved against `cwd`),
 * `VIGIA_COLLECTOR=0`, `VIGIA_COLLECTOR_ACCESS_KEY_ID` / `VIGIA_COLLECTOR_SECRET_ACCESS_KEY`,
 * `POWERTOOLS_LOG_LEVEL`, `VIGIA_DEBUG`.
 * @throws LocalSettingError on a port that is not an integer in 0–65535 or an unknown log level.
 */
export function localSettingsFromEnv(env: Record<string, string | undefined>, cwd = process.cwd()): LocalEnvSettings {
  const ports = { ...DEFAULT_PORTS } as Ports;
  for (const key of Object.keys(PORT_VARIABLES) as Array<keyof Ports>) {
    const name = PORT_VARIABLES[key];
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(n) || n < 0 || n > 65535) {
      throw new LocalSettingError(`${name}=${raw} is not a valid port (an integer from 0 to 65535; 0 = any free port)`);
    }
    ports[key] = n;
  }
  // Another DynamoDB port and no engine port named: the engine behind it takes a free one (two stacks never
  // fight over 8001).
  if (ports.dynamodb !== DEFAULT_PORTS.dynamodb && !env[PORT_VARIABLES.dynamodbInternal]) ports.dynamodbInternal = 0;
  const level = env.POWERTOOLS_LOG_LEVEL;
  if (level && !LOG_LEVELS.includes(level as LambdaConfig['logLevel'])) {
    throw new LocalSettingError(`POWERTOOLS_LOG_LEVEL=${level} is not one of ${LOG_LEVELS.join(', ')}`);
  }
  return {
    ports,
    dataDir: env.VIGIA_DATA_DIR ? path.resolve(cwd, env.VIGIA_DATA_DIR) : DEFAULT_DATA_DIR,
    collector: env.VIGIA_COLLECTOR !== '0',
    collectorCredential: {
      ...LOCAL_COLLECTOR_CREDENTIAL,
      ...(env.VIGIA_COLLECTOR_ACCESS_KEY_ID ? { accessKeyId: env.VIGIA_COLLECTOR_ACCESS_KEY_ID } : {}),
      ...(env.VIGIA_COLLECTOR_SECRET_ACCESS_KEY ? { secretAccessKey: env.VIGIA_COLLECTOR_SECRET_ACCESS_KEY } : {}),
    },
    logLevel: (level as LambdaConfig['logLevel'] | undefined) || LOCAL_LOG_LEVEL,
    debug: Boolean(env.VIGIA_DEBUG),
  };
}
