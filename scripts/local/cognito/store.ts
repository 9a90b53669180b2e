/**
 * cognito-local 5.3.0's on-disk data, as read from its source (lib/server/defaults.js, services/dataStore/stormDb.js,
 * services/cognitoService.js, services/userPoolService.js):
 *  - `<cwd>/.cognito/config.json`: config merged over its defaults at start (we set `TokenConfig.IssuerDomain`);
 *  - `<cwd>/.cognito/db/clients.json`: `{ Clients: { [clientId]: AppClient } }`;
 *  - `<cwd>/.cognito/db/<userPoolId>.json`: `{ Options: UserPool, Users: { [Username]: User }, Groups: {…} }`,
 *    dates as ISO-8601 strings, passwords in plaintext (`User.Password`), issued refresh tokens in
 *    `User.RefreshTokens`, pending codes in `User.ConfirmationCode` / `User.AttributeVerificationCode`.
 *
 * cognito-local loads these files when it starts and keeps them in memory, saving after every change; so we
 * WRITE them only before it starts ({@link seedUserPool}) and afterwards only READ them (to learn a user's
 * password for SRP, its refresh tokens for GlobalSignOut, or the code just sent). Reads retry briefly because a
 * save may be in progress.
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { VIGIA_PASSWORD_POLICY, type PasswordPolicy } from './policy.js';
import { LOCAL_PRE_TOKEN_GENERATION_FUNCTION } from './pre-token-event.js';
import { PORTAL_CLIENT_WRITE_ATTRIBUTES } from '../../../infra/user-pool-attributes.js';


/**
 * RetryGracePeriodSeconds of the deployed app client's refresh token rotation: the value of
 * `REFRESH_TOKEN_GRACE_SECONDS` in infra/stage-config.ts (not imported, to keep the CDK library out of the local
 * stack; a unit test checks they agree).
 */
export const DEPLOYED_REFRESH_TOKEN_GRACE_SECONDS = 10;

/** A user record of cognito-local (subset we use). */
export interface LocalUser {
  Username: string;
  Password?: string;
  Attributes?: { Name: string; Value?: string }[];
  Enabled?: boolean;
  UserStatus?: string;
  RefreshTokens?: string[];
  ConfirmationCode?: string;
  AttributeVerificationCode?: string;
  /** Attribute changes waiting for verification (`AttributesRequireVerificationBeforeUpdate`). */
  UnverifiedAttributeChanges?: { Name: string; Value?: string }[];
}

/** A user pool file of cognito-local (subset we use). */
export interface LocalPoolFile {
  Options: { Id: string; UsernameAttributes?: string[]; Policies?: { PasswordPolicy?: PasswordPolicy } } & Record<string, unknown>;
  Users?: Record<string, LocalUser>;
  Groups?: Record<string, unknown>;
}

/** An app client of cognito-local (subset we use). */
export interface LocalAppClient {
  ClientId: string;
  UserPoolId: string;
  ExplicitAuthFlows?: string[];
  ClientSecret?: string;
  /** Cognito's RefreshTokenRotationType: rotation on, and how long (s, 0–60) a rotated-out token stays valid. */
  RefreshTokenRotation?: { Feature: 'ENABLED' | 'DISABLED'; RetryGracePeriodSeconds?: number };
  /** Providers the client may sign in through (`COGNITO` and, offline, those staff added; ./identity-providers.ts). */
  SupportedIdentityProviders?: string[];
  /** Attributes users may write through this client (SignUp, UpdateUserAttributes); absent = Cognito's default (./attributes.ts). */
  WriteAttributes?: string[];
}

/** `<dataDir>/.cognito`, cognito-local's config directory when started with `cwd = dataDir`. */
export const configDir = (dataDir: string): string => join(dataDir, '.cognito');
/** `<dataDir>/.cognito/db`. */
export const dbDir = (dataDir: string): string => join(configDir(dataDir), 'db');

async function readJson<T>(file: string): Promise<T | null> {
  for (let attempt = 0; ; attempt++) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      // A save may be in progress (truncated file): retry for up to ~200 ms.
      if (attempt >= 20) throw err;
      await sleep(10);
    }
  }
}

/** Value of a user attribute, or undefined. */
export function attributeValue(user: LocalUser, name: string): string | undefined {
  return user.Attributes?.find((a) => a.Name === name)?.Value;
}

/** Reads a user pool file; null if absent. */
export function readPool(dataDir: string, userPoolId: string): Promise<LocalPoolFile | null> {
  return readJson<LocalPoolFile>(join(dbDir(dataDir), `${userPoolId}.json`));
}

/** Reads an app client; null if absent. */
export async function readAppClient(dataDir: string, clientId: string): Promise<LocalAppClient | null> {
  const file = await readJson<{ Clients?: Record<string, LocalAppClient> }>(join(dbDir(dataDir), 'clients.json'));
  return file?.Clients?.[clientId] ?? null;
}

/**
 * Finds a user the way cognito-local's `getUserByUsername` does (by Username, then by `sub`, then by `email` /
 * `phone_number` when those are username attributes of the pool), except that the e-mail comparison ignores
 * case, as the deployed pool does (`signInCaseSensitive: false` in infra/auth-stack.ts).
 */
export function findUser(pool: LocalPoolFile, username: string): LocalUser | null {
  const users = pool.Users ?? {};
  const direct = users[username];
  if (direct) return direct;
  const aliases = pool.Options.UsernameAttributes ?? [];
  const lower = username.toLowerCase();
  for (const user of Object.values(users)) {
    if (attributeValue(user, 'sub') === username) return user;
    if (aliases.includes('email') && attributeValue(user, 'email')?.toLowerCase() === lower) return user;
    if (aliases.includes('phone_number') && attributeValue(user, 'phone_number') === username) return user;
  }
  return null;
}

export interface SeedOptions {
  dataDir: string;
  userPoolId: string;
  userPoolClientId: string;
  /** `TokenConfig.IssuerDomain`: tokens get `iss = <issuerDomain>/<userPoolId>`. */
  issuerDomain: string;
  /**
   * RetryGracePeriodSeconds of the app client's refresh token rotation (0–60); default the deployed client's
   * ({@link DEPLOYED_REFRESH_TOKEN_GRACE_SECONDS}). Tests shorten it.
   */
  refreshTokenGraceSeconds?: number;
}

/**
 * Idempotently writes cognito-local's config and the Vigía user pool + app client BEFORE cognito-local starts.
 * Existing users and groups are kept; pool options and the app client are rewritten every time, so policy changes
 * apply on the next start. Pool: e-mail as username, e-mail auto-verified, the deployed pool's password policy,
 * MFA OPTIONAL (TOTP only), user-existence errors prevented. App client: no secret; the deployed client's flows
 * (SRP only: with refresh token rotation on, refresh goes through GetTokensFromRefreshToken and
 * ALLOW_REFRESH_TOKEN_AUTH is left out); rotation with the deployed grace period; token lifetimes as the Cognito
 * defaults (access/ID 60 min, refresh 30 days); token revocation on.
 */
export async function seedUserPool(opts: SeedOptions): Promise<void> {
  const now = new Date().toISOString();
  await mkdir(dbDir(opts.dataDir), { recursive: true });
  const configFile = join(configDir(opts.dataDir), 'config.json');
  const config = (await readJson<Record<string, unknown>>(configFile)) ?? {};
  await writeFile(
    configFile,
    JSON.stringify(
      {
        ...config,
        TokenConfig: { IssuerDomain: opts.issuerDomain },
        // The pre token generation trigger, served by the proxy at the public endpoint (./triggers.ts).
        TriggerFunctions: { PreTokenGeneration: LOCAL_PRE_TOKEN_GENERATION_FUNCTION },
        LambdaClient: { endpoint: opts.issuerDomain, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } },
        UserPoolDefaults: { UsernameAttributes: ['email'] },
      },
      null,
      2,
    ),
  );

  const poolFile = join(dbDir(opts.dataDir), `${opts.userPoolId}.json`);
  const existing = await readJson<LocalPoolFile>(poolFile);
  const pool: LocalPoolFile = {
    ...existing,
    Users: existing?.Users ?? {},
    Options: {
      Id: opts.userPoolId,
      Name: 'vigia-local',
      Arn: `arn:aws:cognito-idp:local:local:userpool/${opts.userPoolId}`,
      CreationDate: (existing?.Options.CreationDate as string | undefined) ?? now,
      LastModifiedDate: now,
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      Policies: { PasswordPolicy: VIGIA_PASSWORD_POLICY },
      MfaConfiguration: 'OPTIONAL',
      SoftwareTokenMfaConfiguration: { Enabled: true },
      // infra/auth-stack.ts deviceTracking: the user chooses to remember a device; no device challenge.
      DeviceConfiguration: { ChallengeRequiredOnNewDevice: false, DeviceOnlyRememberedOnUserPrompt: true },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
      // infra/auth-stack.ts keepOriginal: a new e-mail takes effect only once verified; until then the user
      // keeps (and the tokens carry) the old, verified address. cognito-local honours this setting.
      UserAttributeUpdateSettings: { AttributesRequireVerificationBeforeUpdate: ['email'] },
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false, UnusedAccountValidityDays: 7 },
      VerificationMessageTemplate: { DefaultEmailOption: 'CONFIRM_WITH_CODE' },
      EmailConfiguration: { EmailSendingAccount: 'COGNITO_DEFAULT' },
      LambdaConfig: {},
    },
  };
  await writeFile(poolFile, JSON.stringify(pool, null, 2));

  const clientsFile = join(dbDir(opts.dataDir), 'clients.json');
  const clients = (await readJson<{ Clients?: Record<string, unknown> }>(clientsFile)) ?? {};
  const previous = clients.Clients?.[opts.userPoolClientId] as { CreationDate?: string; SupportedIdentityProviders?: string[] } | undefined;
  await writeFile(
    clientsFile,
    JSON.stringify(
      {
        ...clients,
        Clients: {
          ...clients.Clients,
          [opts.userPoolClientId]: {
            ClientId: opts.userPoolClientId,
            ClientName: 'vigia-local-portal',
            UserPoolId: opts.userPoolId,
            CreationDate: previous?.CreationDate ?? now,
            LastModifiedDate: now,
            // The deployed app client's flows (infra/auth-stack.ts authFlows: userSrp) and refresh token rotation
            // (refreshTokenRotationGracePeriod), which leaves ALLOW_REFRESH_TOKEN_AUTH out.
            ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH'],
            RefreshTokenRotation: { Feature: 'ENABLED', RetryGracePeriodSeconds: opts.refreshTokenGraceSeconds ?? DEPLOYED_REFRESH_TOKEN_GRACE_SECONDS },
            AccessTokenValidity: 60,
            IdTokenValidity: 60,
            RefreshTokenValidity: 30,
            TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
            EnableTokenRevocation: true,
            PreventUserExistenceErrors: 'ENABLED',
            // The deployed client's writeAttributes (infra/user-pool-attributes.ts), enforced by the proxy (./attributes.ts).
            WriteAttributes: [...PORTAL_CLIENT_WRITE_ATTRIBUTES],
            // Providers staff added (UpdateUserPoolClient) stay across restarts.
            SupportedIdentityProviders: [...new Set(['COGNITO', ...(previous?.SupportedIdentityProviders ?? [])])],
          },
        },
      },
      null,
      2,
    ),
  );
}

/** File (JSON lines) where every code or invitation the local pool "sends" is recorded: `<dataDir>/codes.jsonl`. */
export const codesFile = (dataDir: string): string => join(dataDir, 'codes.jsonl');

/** One line of {@link codesFile}. */
export interface SentCode {
  /** ISO-8601 UTC. */
  time: string;
  /** E-mail address the message went to. */
  destination: string;
  /** Internal username (the user's `sub` in this e-mail-as-username pool). */
  username: string;
  /** Why it was sent: SignUp, ResendConfirmationCode, ForgotPassword, AdminCreateUser (temporary password), … */
  purpose: string;
  /** The verification code, or the temporary password for AdminCreateUser. */
  code: string;
}

/** Appends a sent code to {@link codesFile}. */
export async function recordSentCode(dataDir: string, entry: SentCode): Promise<void> {
  await appendFile(codesFile(dataDir), `${JSON.stringify(entry)}\n`);
}

/**
 * The last code sent to `email` (optionally for one `purpose`), from {@link codesFile}; null when none.
 * For developers and tests; codes are also fixed offline (see FIXED_CODE in ./index.ts).
 */
export async function lastCodeFor(dataDir: string, email: string, purpose?: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(codesFile(dataDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let found: string | null = null;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as SentCode;
    if (entry.destination === email && (purpose === undefined || entry.purpose === purpose)) found = entry.code;
  }
  return found;
}
