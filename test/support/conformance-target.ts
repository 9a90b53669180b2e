/**
 * The system the conformance suite (test/conformance) talks to: the local stack, or a deployed stage.
 *
 * - `VIGIA_TARGET` unset: starts the local stack (`startLocalStack`: free ports, a temporary state folder, no
 *   portal, no collector simulator, no demo data) and creates the test users with the local operator key.
 * - `VIGIA_TARGET=https://…` (a deployed portal): the stage's outputs come from `<VIGIA_TARGET>/config.json`
 *   (the portal's runtime configuration: region, user pool id, app client id, API URL), each overridable by
 *   `VIGIA_REGION`, `VIGIA_USER_POOL_ID`, `VIGIA_CLIENT_ID`, `VIGIA_API_URL`; whether self sign-up is on comes
 *   from its `allowSignUp` (off on previews), or `VIGIA_ALLOW_SIGN_UP=true|false`. Tests that need what only the
 *   local stack gives (codes "sent" by e-mail, users created for the test, the pool's signing key) are
 *   skipped with that reason; sign-in tests need a confirmed user in `VIGIA_TEST_EMAIL` /
 *   `VIGIA_TEST_PASSWORD`, the ingest tests a collector key in `VIGIA_COLLECTOR_ACCESS_KEY_ID` /
 *   `VIGIA_COLLECTOR_SECRET_ACCESS_KEY`.
 *
 * docs/testing.md#the-conformance-suite says how to run it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { LOCAL_COLLECTOR_CREDENTIAL, LOCAL_OPERATOR_CREDENTIAL, type CollectorCredential } from '../../scripts/local/config.js';
import { FIXED_CODE, lastCodeFor } from '../../scripts/local/cognito/index.js';
import { startLocalStack, type RunningLocalStack } from '../../scripts/local/stack.js';
import { REFRESH_TOKEN_GRACE_SECONDS, stageConfig } from '../../infra/stage-config.js';

/** The stage whose settings the local stack stands for (self sign-up, development profile). */
export const LOCAL_EQUIVALENT_STAGE = 'dev';

/** What a conformance test needs to know about the system under test. */
export interface ConformanceTarget {
  /** `local` (the local stack started here) or `deployed` (VIGIA_TARGET). */
  kind: 'local' | 'deployed';
  region: string;
  userPoolId: string;
  clientId: string;
  /** API base URL without a trailing slash. */
  apiUrl: string;
  /** The user-pool endpoint for SDK clients (`undefined` = the regional AWS endpoint). */
  cognitoEndpoint: string | undefined;
  /** A confirmed user with a verified e-mail (created here locally), or null when not configured. */
  user: { email: string; password: string } | null;
  /** Whether the pool accepts SignUp (the portal's `allowSignUp`; off on previews and production stages). */
  selfSignUp: boolean;
  /** Seconds a rotated-out refresh token stays valid (the app client's RetryGracePeriodSeconds). */
  refreshTokenGraceSeconds: number;
  /** The collector access key for the ingest routes, or null when not configured. */
  collector: CollectorCredential | null;
  /** Local only: the last code "sent" to `email` (for a purpose), as the local pool records it. */
  codeFor(email: string, purpose?: string): Promise<string>;
  /** Local only: creates a confirmed user with a verified e-mail in `groups`. */
  createUser(email: string, password: string, groups?: string[]): Promise<void>;
  /** Local only: the state folder of the local stack. */
  dataDir: string | null;
  stop(): Promise<void>;
}

/** Why a local-only test is skipped against a deployed stage. */
export const LOCAL_ONLY = 'needs the local stack (codes sent by e-mail, users created by the test, the pool signing key)';

/** The local pool's administrative client, signed with the operator key. */
export function operatorClient(endpoint: string, region: string): CognitoIdentityProviderClient {
  const { accessKeyId, secretAccessKey } = LOCAL_OPERATOR_CREDENTIAL;
  return new CognitoIdentityProviderClient({ endpoint, region, credentials: { accessKeyId, secretAccessKey } });
}

/** Test users' password (the deployed policy: at least 8 characters). */
export const CONFORMANCE_PASSWORD = 'conformidad-8';
/** The tenant group the local test users belong to. */
export const CONFORMANCE_GROUP = 'acme';

async function deployed(target: string): Promise<ConformanceTarget> {
  const env = process.env;
  let config: Record<string, unknown> = {};
  if (!(env.VIGIA_REGION && env.VIGIA_USER_POOL_ID && env.VIGIA_CLIENT_ID && env.VIGIA_API_URL)) {
    const res = await fetch(new URL('/config.json', target));
    if (!res.ok) throw new Error(`VIGIA_TARGET: ${target}/config.json answered ${res.status}; set VIGIA_REGION, VIGIA_USER_POOL_ID, VIGIA_CLIENT_ID and VIGIA_API_URL instead`);
    config = (await res.json()) as Record<string, unknown>;
  }
  const pick = (name: string, key: string): string => {
    const v = env[name] ?? (typeof config[key] === 'string' ? (config[key] as string) : '');
    if (!v) throw new Error(`VIGIA_TARGET: no ${key} (set ${name} or serve it in config.json)`);
    return v;
  };
  const localOnly = async (): Promise<never> => {
    throw new Error(LOCAL_ONLY);
  };
  const allowSignUp = env.VIGIA_ALLOW_SIGN_UP ?? (typeof config.allowSignUp === 'boolean' ? String(config.allowSignUp) : 'false');
  return {
    kind: 'deployed',
    selfSignUp: allowSignUp === 'true',
    refreshTokenGraceSeconds: REFRESH_TOKEN_GRACE_SECONDS,
    region: pick('VIGIA_REGION', 'region'),
    userPoolId: pick('VIGIA_USER_POOL_ID', 'userPoolId'),
    clientId: pick('VIGIA_CLIENT_ID', 'userPoolClientId'),
    apiUrl: pick('VIGIA_API_URL', 'apiUrl').replace(/\/$/, ''),
    cognitoEndpoint: undefined,
    user: env.VIGIA_TEST_EMAIL && env.VIGIA_TEST_PASSWORD ? { email: env.VIGIA_TEST_EMAIL, password: env.VIGIA_TEST_PASSWORD } : null,
    collector:
      env.VIGIA_COLLECTOR_ACCESS_KEY_ID && env.VIGIA_COLLECTOR_SECRET_ACCESS_KEY
        ? { accessKeyId: env.VIGIA_COLLECTOR_ACCESS_KEY_ID, secretAccessKey: env.VIGIA_COLLECTOR_SECRET_ACCESS_KEY, userArn: '' }
        : null,
    codeFor: localOnly,
    createUser: localOnly,
    dataDir: null,
    stop: async () => undefined,
  };
}

async function local(options: TargetOptions): Promise<ConformanceTarget> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigia-conformance-'));
  let stack: RunningLocalStack;
  try {
    stack = await startLocalStack({
      dataDir,
      ports: { dynamodb: 0, cognito: 0, cognitoInternal: 0, api: 0, web: 0 },
      persist: false,
      seed: false,
      serveWeb: false,
      collector: false,
      logLevel: 'SILENT',
      ...(options.throttling ? { throttling: stageConfig(LOCAL_EQUIVALENT_STAGE).throttling } : {}),
      ...(options.refreshTokenGraceSeconds !== undefined ? { refreshTokenGraceSeconds: options.refreshTokenGraceSeconds } : {}),
    });
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  const admin = operatorClient(stack.urls.cognito, stack.config.region);
  await admin.send(new CreateGroupCommand({ UserPoolId: stack.config.userPoolId, GroupName: CONFORMANCE_GROUP }));
  const createUser = async (email: string, password: string, groups: string[] = [CONFORMANCE_GROUP]): Promise<void> => {
    const UserPoolId = stack.config.userPoolId;
    await admin.send(
      new AdminCreateUserCommand({
        UserPoolId,
        Username: email,
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    await admin.send(new AdminSetUserPasswordCommand({ UserPoolId, Username: email, Password: password, Permanent: true }));
    for (const g of groups) await admin.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: email, GroupName: g }));
  };
  const user = { email: 'conformidad@acme.example', password: CONFORMANCE_PASSWORD };
  await createUser(user.email, user.password);
  return {
    kind: 'local',
    selfSignUp: stageConfig(LOCAL_EQUIVALENT_STAGE).selfSignUp,
    refreshTokenGraceSeconds: options.refreshTokenGraceSeconds ?? REFRESH_TOKEN_GRACE_SECONDS,
    region: stack.config.region,
    userPoolId: stack.config.userPoolId,
    clientId: stack.config.userPoolClientId,
    apiUrl: stack.urls.api,
    cognitoEndpoint: stack.urls.cognito,
    user,
    collector: LOCAL_COLLECTOR_CREDENTIAL,
    codeFor: async (email, purpose) => (await lastCodeFor(path.join(dataDir, 'cognito'), email, purpose)) ?? FIXED_CODE,
    createUser,
    dataDir,
    stop: async () => {
      admin.destroy();
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** How to start the local stack. */
export interface TargetOptions {
  /** Local only: throttle the gateway with the development stage's rate and burst (`infra/stage-config.ts`). */
  throttling?: boolean;
  /** Local only: the app client's refresh token grace period, seconds (default the deployed one, 10). */
  refreshTokenGraceSeconds?: number;
}

/** Starts (or describes) the system under test: the deployed stage named by `VIGIA_TARGET`, else the local stack. */
export function conformanceTarget(options: TargetOptions = {}): Promise<ConformanceTarget> {
  const target = process.env.VIGIA_TARGET;
  return target ? deployed(target) : local(options);
}
